import { useState } from 'preact/hooks';
import type { z } from 'zod';
import { WEBHOOK_EVENTS, WebhookEndpointCreate, type WebhookEndpoint, type WebhookEvent } from '../../../shared/schemas/webhooks';
import { api, errorMessage, formErrors } from '../../api/client';
import { useList } from '../../api/useList';
import { zodErrors } from '../../app/zodErrors';
import { ActiveBadge, Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { ConfirmDialog, Dialog } from '../../ui/Dialog';
import { CheckField, SelectField, TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { dateTime } from '../../ui/when';
import { useRefData } from '../money/refs';
import type { IntegrationProps } from './props';

type Endpoint = z.infer<typeof WebhookEndpoint>;

/** Outbound webhook endpoints: where package events are POSTed, signed with the company's secret. */
export function Endpoints({ isCompany, canManage }: IntegrationProps) {
  const list = useList<Endpoint>('webhook-endpoint/', { pageSize: 25 });
  const companies = useRefData('company', !isCompany);
  const [editing, setEditing] = useState<Endpoint | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [busy, setBusy] = useState(false);
  const f = list.params.filters ?? {};
  const { data } = list;

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await api.delete(`webhook-endpoint/${deleting.id}/`);
      toast('Endpoint removed', 'ok');
      setDeleting(null);
      list.reload();
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };
  const toggle = async (e: Endpoint) => {
    try {
      await api.patch(`webhook-endpoint/${e.id}/`, { is_active: !e.is_active });
      toast(e.is_active ? 'Endpoint paused' : 'Endpoint active again', 'ok');
      list.reload();
    } catch (err) {
      toast(errorMessage(err), 'bad');
    }
  };

  const columns: Column<Endpoint>[] = [
    {
      key: 'url',
      label: 'URL',
      render: (e) => (
        <div class="url-cell mono">
          {e.url}
          {e.description && (
            <div class="muted" style={{ fontFamily: 'var(--font)', fontSize: '0.85rem' }}>
              {e.description}
            </div>
          )}
        </div>
      ),
    },
    ...(isCompany ? [] : [{ key: 'company', label: 'Company', render: (e: Endpoint) => companies.name(e.company) }]),
    {
      key: 'events',
      label: 'Events',
      render: (e) => (
        <div class="events">
          {e.events.map((ev) => (
            <Badge key={ev} tone="info">
              {ev.replace('package.', '')}
            </Badge>
          ))}
        </div>
      ),
    },
    { key: 'is_active', label: 'Status', render: (e) => <ActiveBadge active={e.is_active} /> },
    { key: 'updated_at', label: 'Changed', optional: true, render: (e) => dateTime(e.updated_at) },
  ];

  return (
    <>
      <p class="integration-intro muted">
        Each event is POSTed as JSON with an <code>X-Courier-Signature</code> header (HMAC-SHA256 with your signing secret). Failed
        deliveries are retried with back-off; see the Deliveries tab.
      </p>
      <div class="filters-bar">
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
        {canManage && (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New endpoint
          </Button>
        )}
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="No webhook endpoints yet">
            {canManage && 'Generate a signing secret first, then add the URL that should receive package events.'}
          </Empty>
        </div>
      ) : (
        <>
          <DataTable<Endpoint>
            columns={columns}
            rows={data.results}
            rowKey={(e) => e.id}
            caption="Webhook endpoints"
            actions={
              canManage
                ? (e) => (
                    <div class="row">
                      <Button size="small" onClick={() => setEditing(e)}>
                        Edit
                      </Button>
                      <Button size="small" onClick={() => void toggle(e)}>
                        {e.is_active ? 'Pause' : 'Resume'}
                      </Button>
                      <Button size="small" variant="ghost" onClick={() => setDeleting(e)}>
                        Delete
                      </Button>
                    </div>
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
      {editing && (
        <EndpointDialog
          endpoint={editing === 'new' ? null : editing}
          isCompany={isCompany}
          companies={companies.options}
          onClose={() => setEditing(null)}
          onSaved={() => {
            toast(editing === 'new' ? 'Endpoint added' : 'Endpoint saved', 'ok');
            setEditing(null);
            list.reload();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete this endpoint?"
          danger
          busy={busy}
          confirmLabel="Delete"
          onConfirm={() => void remove()}
          onClose={() => setDeleting(null)}
          message={
            <p>
              Queued deliveries to <span class="mono">{deleting.url}</span> are dropped. To stop sending but keep the history, pause it
              instead.
            </p>
          }
        />
      )}
    </>
  );
}

function EndpointDialog({
  endpoint,
  isCompany,
  companies,
  onClose,
  onSaved,
}: {
  endpoint: Endpoint | null;
  isCompany: boolean;
  companies: { value: string; label: string }[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const [company, setCompany] = useState(endpoint ? String(endpoint.company) : '');
  const [url, setUrl] = useState(endpoint?.url ?? 'https://');
  const [events, setEvents] = useState<Set<WebhookEvent>>(new Set(endpoint?.events ?? ['package.delivered', 'package.failed']));
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [active, setActive] = useState(endpoint?.is_active ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const body = {
      ...(isCompany || endpoint ? {} : { company: Number(company) || undefined }),
      url: url.trim(),
      events: WEBHOOK_EVENTS.filter((ev) => events.has(ev)),
      description,
      is_active: active,
    };
    const parsed = WebhookEndpointCreate.safeParse(body);
    const errs = parsed.success ? {} : zodErrors(parsed.error);
    if (!isCompany && !endpoint && !body.company) errs.company = 'Choose the company';
    if (body.events.length === 0) errs.events = 'Choose at least one event';
    if (Object.keys(errs).length) {
      setErrors(errs);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (endpoint) await api.patch(`webhook-endpoint/${endpoint.id}/`, body);
      else await api.post('webhook-endpoint/', body);
      onSaved();
    } catch (err) {
      setErrors(formErrors(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={endpoint ? 'Edit endpoint' : 'New webhook endpoint'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="endpoint-form" busy={busy}>
            {endpoint ? 'Save endpoint' : 'Add endpoint'}
          </Button>
        </>
      }
    >
      <form id="endpoint-form" class="stack" onSubmit={(e) => void submit(e)} noValidate>
        {errors._ && (
          <div class="form-error" role="alert">
            {errors._}
          </div>
        )}
        {!isCompany && !endpoint && (
          <SelectField
            label="Company"
            name="company"
            value={company}
            onValue={setCompany}
            options={companies}
            placeholder="Choose a company"
            error={errors.company}
            required
          />
        )}
        <TextField
          label="URL"
          type="url"
          value={url}
          onValue={setUrl}
          error={errors.url}
          required
          hint="https:// address that answers 2xx when it has the event"
        />
        <fieldset class="event-checks" aria-describedby={errors.events ? 'events-error' : undefined}>
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((ev) => (
            <CheckField
              key={ev}
              label={ev}
              checked={events.has(ev)}
              onValue={(on) =>
                setEvents((p) => {
                  const n = new Set(p);
                  if (on) n.add(ev);
                  else n.delete(ev);
                  return n;
                })
              }
            />
          ))}
        </fieldset>
        {errors.events && (
          <span id="events-error" class="error" role="alert" style={{ color: 'var(--bad)', fontWeight: 600 }}>
            {errors.events}
          </span>
        )}
        <TextField label="Description" value={description} onValue={setDescription} error={errors.description} />
        <CheckField label="Active" checked={active} onValue={setActive} />
      </form>
    </Dialog>
  );
}
