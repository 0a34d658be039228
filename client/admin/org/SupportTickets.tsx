import { useState } from 'preact/hooks';
import type { z } from 'zod';
import type { SupportTicket } from '../../../shared/schemas/org';
import { api, errorMessage } from '../../api/client';
import { useList } from '../../api/useList';
import { can } from '../../app/access';
import type { Session } from '../../app/session';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { Dialog } from '../../ui/Dialog';
import { Field, SelectField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';
import { ORG_PATHS } from '../routes/paths';
import './org.css';
import { shortDateTime } from '../../ui/when';

type Ticket = z.infer<typeof SupportTicket>;
const when = (iso: string | null) => shortDateTime(iso);

const COLUMNS: Column<Ticket>[] = [
  { key: 'subject', label: 'Subject', render: (t) => <strong>{t.subject}</strong> },
  { key: 'driver_name', label: 'Driver' },
  {
    key: 'status',
    label: 'Status',
    sort: 'status',
    render: (t) => <Badge tone={t.status === 'open' ? 'warn' : 'ok'}>{t.status === 'open' ? 'Open' : 'Closed'}</Badge>,
  },
  { key: 'created_at', label: 'Raised', sort: 'created_at', render: (t) => when(t.created_at) },
  { key: 'closed_at', label: 'Closed', render: (t) => when(t.closed_at) },
];

/** Drivers' support tickets: read, answer, close (or reopen). */
export default function SupportTickets({ session }: { session: Session }) {
  const canManage = can(session.user.role, 'support.manage');
  const list = useList<Ticket>(ORG_PATHS.tickets, { ordering: '-created_at', pageSize: 25, filters: { status: 'open' } });
  const drivers = useRefOptions(REFS.driver);
  const [open, setOpen] = useState<Ticket | null>(null);
  const { data, params } = list;
  const f = params.filters ?? {};
  return (
    <section aria-labelledby="support-title">
      <div class="page-head">
        <h1 id="support-title">Driver support</h1>
      </div>
      <div class="toolbar">
        <div class="field search">
          <label for="ticket-search">Search</label>
          <input
            id="ticket-search"
            class="input"
            type="search"
            placeholder="Subject or message"
            value={params.search ?? ''}
            onInput={(e) => list.setParams({ search: (e.currentTarget as HTMLInputElement).value })}
          />
        </div>
        <SelectField
          name="filter-status"
          label="Status"
          value={f.status ?? ''}
          onValue={(v) => list.setFilter('status', v)}
          options={[
            { value: 'open', label: 'Open' },
            { value: 'closed', label: 'Closed' },
          ]}
          placeholder="All"
        />
        <SelectField
          name="filter-driver"
          label="Driver"
          value={f.driver ?? ''}
          onValue={(v) => list.setFilter('driver', v)}
          options={drivers.options}
          placeholder="All"
        />
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title={f.status === 'open' ? 'No open tickets' : 'No tickets'} />
        </div>
      ) : (
        <div aria-busy={list.loading ? 'true' : undefined}>
          <DataTable<Ticket>
            columns={COLUMNS}
            rows={data.results}
            rowKey={(t) => t.id}
            caption="Support tickets"
            ordering={params.ordering}
            onOrdering={(o) => list.setParams({ ordering: o })}
            onRowClick={setOpen}
            actions={(t) => (
              <Button size="small" onClick={() => setOpen(t)}>
                Open
              </Button>
            )}
          />
          <Pager
            page={params.page}
            pageSize={params.pageSize}
            count={data.count}
            onPage={(p) => list.setParams({ page: p })}
            onPageSize={(n) => list.setParams({ pageSize: n })}
          />
        </div>
      )}
      {open && (
        <TicketDialog
          ticket={open}
          canManage={canManage}
          onClose={() => setOpen(null)}
          onSaved={() => {
            setOpen(null);
            list.reload();
          }}
        />
      )}
    </section>
  );
}

function TicketDialog({
  ticket,
  canManage,
  onClose,
  onSaved,
}: {
  ticket: Ticket;
  canManage: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [response, setResponse] = useState(ticket.response);
  const [busy, setBusy] = useState(false);
  const send = async (status?: 'open' | 'closed') => {
    setBusy(true);
    try {
      await api.patch(ORG_PATHS.ticket(ticket.id), { response, ...(status ? { status } : {}) });
      toast(status === 'closed' ? 'Ticket closed' : status === 'open' ? 'Ticket reopened' : 'Reply saved', 'ok');
      onSaved();
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };
  const isOpen = ticket.status === 'open';
  return (
    <Dialog
      title={ticket.subject}
      onClose={onClose}
      footer={
        canManage ? (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button busy={busy} onClick={() => void send()}>
              Save reply
            </Button>
            {isOpen ? (
              <Button variant="primary" busy={busy} onClick={() => void send('closed')}>
                Close ticket
              </Button>
            ) : (
              <Button busy={busy} onClick={() => void send('open')}>
                Reopen
              </Button>
            )}
          </>
        ) : undefined
      }
    >
      <dl class="dl">
        <dt>Driver</dt>
        <dd>{ticket.driver_name}</dd>
        <dt>Raised</dt>
        <dd>{when(ticket.created_at)}</dd>
        <dt>Status</dt>
        <dd>{isOpen ? 'Open' : `Closed ${when(ticket.closed_at)}`}</dd>
      </dl>
      <blockquote class="ticket-message">{ticket.message}</blockquote>
      {canManage ? (
        <Field label="Reply to the driver" hint="The driver sees it in the app">
          {({ id, describedBy }) => (
            <textarea
              id={id}
              class="input"
              rows={4}
              maxLength={5000}
              value={response}
              aria-describedby={describedBy}
              onInput={(e) => setResponse((e.currentTarget as HTMLTextAreaElement).value)}
            />
          )}
        </Field>
      ) : (
        ticket.response && (
          <p>
            <strong>Reply:</strong> {ticket.response}
          </p>
        )
      )}
    </Dialog>
  );
}
