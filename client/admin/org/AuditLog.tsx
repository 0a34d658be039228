import { useState } from 'preact/hooks';
import { useList } from '../../api/useList';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { ORG_PATHS } from '../routes/paths';
import './org.css';
import { dateTime, shortDateTime } from '../../ui/when';

interface Entry {
  id: number;
  at: string;
  actor: { id: number; name: string } | null;
  action: string;
  target: string;
  details: Record<string, unknown> | null;
}

/** `package:12` links to the parcel; other targets show as text. */
function Target({ target }: { target: string }) {
  const m = /^package:(\d+)$/.exec(target);
  return m ? (
    <a class="mono" href={`#/packages/${m[1]}`}>
      {target}
    </a>
  ) : (
    <span class="mono">{target}</span>
  );
}

const COLUMNS: Column<Entry>[] = [
  { key: 'at', label: 'When', render: (e) => shortDateTime(e.at) },
  { key: 'actor', label: 'Who', render: (e) => e.actor?.name ?? <span class="muted">System</span> },
  { key: 'action', label: 'Action', render: (e) => <span class="mono">{e.action}</span> },
  { key: 'target', label: 'Target', render: (e) => <Target target={e.target} /> },
  {
    key: 'details',
    label: 'Details',
    render: (e) => (e.details ? <span class="muted small audit-details">{JSON.stringify(e.details)}</span> : ''),
  },
];

/** The admin audit trail, newest first: forced deliveries, wallet adjustments, permission and status changes. */
export default function AuditLog() {
  const list = useList<Entry>(ORG_PATHS.auditLog, { pageSize: 50 });
  const [open, setOpen] = useState<Entry | null>(null);
  const { data, params } = list;
  const f = params.filters ?? {};
  return (
    <section aria-labelledby="audit-title">
      <div class="page-head">
        <h1 id="audit-title">Audit log</h1>
      </div>
      <div class="toolbar">
        <TextField
          label="Action"
          name="action"
          value={f.action ?? ''}
          onValue={(v) => list.setFilter('action', v.trim())}
          placeholder="e.g. package.force_deliver"
        />
        <TextField
          label="Target"
          name="target"
          value={f.target ?? ''}
          onValue={(v) => list.setFilter('target', v.trim())}
          placeholder="e.g. package:12"
        />
        <TextField label="From" name="from" type="date" value={f.from ?? ''} onValue={(v) => list.setFilter('from', v)} />
        <TextField label="To" name="to" type="date" value={f.to ?? ''} onValue={(v) => list.setFilter('to', v)} />
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="Nothing recorded for these filters" />
        </div>
      ) : (
        <div aria-busy={list.loading ? 'true' : undefined}>
          <DataTable<Entry> columns={COLUMNS} rows={data.results} rowKey={(e) => e.id} caption="Audit log" onRowClick={setOpen} />
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
        <Dialog title={`${open.action} — ${open.target}`} onClose={() => setOpen(null)}>
          <dl class="dl">
            <dt>When</dt>
            <dd>{dateTime(open.at)}</dd>
            <dt>Who</dt>
            <dd>{open.actor ? `${open.actor.name} (#${open.actor.id})` : 'System'}</dd>
          </dl>
          <pre class="audit-json">{JSON.stringify(open.details ?? {}, null, 2)}</pre>
        </Dialog>
      )}
    </section>
  );
}
