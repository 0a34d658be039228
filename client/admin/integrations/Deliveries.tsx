import { useState } from 'preact/hooks';
import type { z } from 'zod';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDelivery } from '../../../shared/schemas/webhooks';
import { api, errorMessage } from '../../api/client';
import { useList } from '../../api/useList';
import { Badge, type Tone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { Dialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { dateTime, shortDateTime } from '../../ui/when';
import { useRefData } from '../money/refs';
import type { IntegrationProps } from './props';

type Delivery = z.infer<typeof WebhookDelivery>;
const TONE: Record<Delivery['status'], Tone> = { pending: 'warn', delivered: 'ok', dead: 'bad' };
const LABEL: Record<Delivery['status'], string> = { pending: 'Pending', delivered: 'Delivered', dead: 'Gave up' };

function lastResult(d: Delivery): string {
  if (d.last_error) return d.last_error;
  if (d.last_status_class != null) return `Delivered (${d.last_status_class})`;
  return d.attempts === 0 ? 'Not tried yet' : '—';
}

/** Every event sent (or being sent) to an endpoint, its attempts and last answer; replay re-sends it. */
export function Deliveries({ isCompany, canManage }: IntegrationProps) {
  const list = useList<Delivery>('webhook-delivery/', { pageSize: 25 });
  const companies = useRefData('company', !isCompany);
  const [busy, setBusy] = useState<number | null>(null);
  const [open, setOpen] = useState<Delivery | null>(null);
  const f = list.params.filters ?? {};
  const { data } = list;

  const replay = async (d: Delivery) => {
    setBusy(d.id);
    try {
      const next = await api.post<Delivery>(`webhook-delivery/${d.id}/replay/`);
      toast(`Event ${next.event} queued again`, 'ok');
      list.reload();
      if (open?.id === d.id) setOpen(next);
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(null);
    }
  };

  const columns: Column<Delivery>[] = [
    { key: 'created_at', label: 'Raised', render: (d) => <span class="nowrap">{shortDateTime(d.created_at)}</span> },
    {
      key: 'event',
      label: 'Event',
      render: (d) => (
        <button type="button" class="link-button mono" onClick={() => setOpen(d)} aria-label={`Details of ${d.event} #${d.id}`}>
          {d.event}
        </button>
      ),
    },
    ...(isCompany ? [] : [{ key: 'company', label: 'Company', render: (d: Delivery) => companies.name(d.company) }]),
    { key: 'package', label: 'Package', render: (d) => (d.package != null ? <a href={`#/packages/${d.package}`}>#{d.package}</a> : '—') },
    { key: 'status', label: 'Status', render: (d) => <Badge tone={TONE[d.status]}>{LABEL[d.status]}</Badge> },
    { key: 'attempts', label: 'Attempts', numeric: true },
    {
      key: 'last',
      label: 'Last answer',
      render: (d) => <span class={d.last_status_class === '2xx' ? undefined : 'muted'}>{lastResult(d)}</span>,
    },
    {
      key: 'next_attempt_at',
      label: 'Next try',
      render: (d) => (d.status === 'pending' ? <span class="nowrap">{shortDateTime(d.next_attempt_at)}</span> : '—'),
    },
  ];

  return (
    <>
      <div class="filters-bar">
        <SelectField
          label="Status"
          name="filter-status"
          value={f.status ?? ''}
          onValue={(v) => list.setFilter('status', v)}
          placeholder="All"
          options={WEBHOOK_DELIVERY_STATUSES.map((s) => ({ value: s, label: LABEL[s] }))}
        />
        {!isCompany && (
          <SelectField
            label="Company"
            name="filter-company"
            value={f.company ?? ''}
            onValue={(v) => list.setFilter('company', v)}
            options={companies.options}
            placeholder="All companies"
          />
        )}
        <span class="spacer" />
        <Button onClick={list.reload}>Refresh</Button>
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="No events sent yet">Events appear here when a package of a company with an active endpoint changes.</Empty>
        </div>
      ) : (
        <>
          <DataTable<Delivery>
            columns={columns}
            rows={data.results}
            rowKey={(d) => d.id}
            caption="Webhook deliveries"
            onRowClick={setOpen}
            actions={
              canManage
                ? (d) => (
                    <Button size="small" busy={busy === d.id} onClick={() => void replay(d)}>
                      Replay
                    </Button>
                  )
                : undefined
            }
          />
          <Pager
            page={list.params.page}
            pageSize={list.params.pageSize}
            count={data.count}
            onPage={(p) => list.setParams({ page: p })}
            onPageSize={(n) => list.setParams({ pageSize: n })}
          />
        </>
      )}
      {open && (
        <Dialog
          title={`${open.event} · ${LABEL[open.status]}`}
          onClose={() => setOpen(null)}
          footer={
            <>
              {canManage && (
                <Button busy={busy === open.id} onClick={() => void replay(open)}>
                  Replay
                </Button>
              )}
              <Button variant="primary" onClick={() => setOpen(null)}>
                Close
              </Button>
            </>
          }
        >
          <dl class="dl" style={{ marginBottom: '0.75rem' }}>
            <dt>Event id</dt>
            <dd class="mono">{open.event_id}</dd>
            <dt>Attempts</dt>
            <dd>{open.attempts}</dd>
            <dt>Last attempt</dt>
            <dd>{dateTime(open.last_attempt_at)}</dd>
            <dt>Last answer</dt>
            <dd>{lastResult(open)}</dd>
            {open.delivered_at && (
              <>
                <dt>Delivered</dt>
                <dd>{dateTime(open.delivered_at)}</dd>
              </>
            )}
            {open.status === 'pending' && (
              <>
                <dt>Next try</dt>
                <dd>{dateTime(open.next_attempt_at)}</dd>
              </>
            )}
          </dl>
          <pre class="payload" aria-label="Payload">
            {JSON.stringify(open.payload, null, 2)}
          </pre>
        </Dialog>
      )}
    </>
  );
}
