import { useState } from 'preact/hooks';
import { api, errorMessage } from '../../api/client';
import { useList } from '../../api/useList';
import { can } from '../../app/access';
import { navigate } from '../../app/router';
import type { Session } from '../../app/session';
import { Button } from '../../ui/Button';
import { ColumnChooser, DataTable, Pager, useColumns } from '../../ui/DataTable';
import { ConfirmDialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { forgetRefs, useRefOptions } from './refOptions';
import { ResourceForm } from './ResourceForm';
import type { FilterDecl, ResourceDecl, Row } from './types';

function FilterControl({ filter, value, onValue }: { filter: FilterDecl; value: string; onValue: (v: string) => void }) {
  const ref = typeof filter.options === 'object' && 'endpoint' in filter.options ? filter.options : undefined;
  const { options: refOptions } = useRefOptions(ref);
  const options =
    filter.options === 'boolean'
      ? [
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]
      : ref
        ? refOptions
        : (filter.options as readonly { value: string; label: string }[]);
  return (
    <SelectField name={`filter-${filter.name}`} label={filter.label} value={value} onValue={onValue} options={options} placeholder="All" />
  );
}

type Pending = { kind: 'archive' | 'restore'; ids: number[] } | null;

/** The one list/create/edit/archive/restore/status screen, driven by a ResourceDecl. */
export function ResourceScreen({ decl, session, archived }: { decl: ResourceDecl; session: Session; archived: boolean }) {
  const canManage = can(session.user.role, decl.manage);
  const path = archived ? `${decl.name}/archive-${decl.name}-list/` : `${decl.name}/`;
  const list = useList<Row>(path, { ordering: decl.ordering, pageSize: 25 });
  const [visible, toggleColumn] = useColumns(decl.name, decl.columns);
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [deactivating, setDeactivating] = useState<Row | null>(null);

  const changed = () => {
    forgetRefs(decl.name);
    setSelected(new Set());
    list.reload();
  };

  const runArchive = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const action = pending.kind === 'archive' ? `archive-${decl.name}` : `restore-${decl.name}`;
      const res = await api.post<{ count: number }>(`${decl.name}/${action}/`, { deleted: pending.ids });
      toast(`${res.count} ${decl.title.toLowerCase()} ${pending.kind === 'archive' ? 'archived' : 'restored'}`, 'ok');
      setPending(null);
      changed();
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  const setStatus = async (row: Row, value: boolean | string) => {
    const status = decl.status;
    if (!status) return;
    try {
      const body = status.kind === 'active' ? { is_active: value } : { [status.field]: value };
      await api.post(`${decl.name}/${row.id}/status-change/`, body);
      toast(`${decl.singular} #${row.id} is now ${typeof value === 'boolean' ? (value ? 'active' : 'inactive') : value}`, 'ok');
      changed();
    } catch (err) {
      toast(errorMessage(err), 'bad');
    }
  };

  const statusAction = (row: Row) => {
    const status = decl.status;
    if (!status || !canManage || archived) return null;
    if (status.kind === 'active') {
      const on = row.is_active === true;
      const toggle = () => (on && decl.deactivateDialog ? setDeactivating(row) : void setStatus(row, !on));
      return (
        <Button size="small" onClick={toggle}>
          {on ? (status.verbs?.[0] ?? 'Deactivate') : (status.verbs?.[1] ?? 'Activate')}
        </Button>
      );
    }
    return (
      <select
        class="input"
        style={{ width: 'auto', minHeight: '36px', display: 'inline-block' }}
        aria-label={`Status of #${row.id}`}
        value={String(row[status.field] ?? '')}
        onChange={(e) => void setStatus(row, (e.currentTarget as HTMLSelectElement).value)}
      >
        {status.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  };

  const { data, params } = list;
  const ids = [...selected];
  return (
    <section aria-labelledby="resource-title">
      <div class="page-head">
        <h1 id="resource-title">
          {decl.title}
          {archived && ' — archive'}
        </h1>
        <span class="spacer" />
        {canManage && !archived && decl.create && (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New {decl.singular.toLowerCase()}
          </Button>
        )}
      </div>
      {decl.archive && (
        <div class="tabs" role="tablist">
          <button role="tab" aria-selected={!archived} onClick={() => navigate(`/r/${decl.name}`)}>
            Current
          </button>
          <button role="tab" aria-selected={archived} onClick={() => navigate(`/r/${decl.name}/archive`)}>
            Archived
          </button>
        </div>
      )}
      <div class="toolbar">
        {decl.searchable !== false && (
          <div class="field search">
            <label for="resource-search">Search</label>
            <input
              id="resource-search"
              class="input"
              type="search"
              placeholder={`Search ${decl.title.toLowerCase()}`}
              value={params.search ?? ''}
              onInput={(e) => list.setParams({ search: (e.currentTarget as HTMLInputElement).value })}
            />
          </div>
        )}
        {decl.filters?.map((f) => (
          <FilterControl key={f.name} filter={f} value={params.filters?.[f.name] ?? ''} onValue={(v) => list.setFilter(f.name, v)} />
        ))}
        <span class="spacer" />
        <ColumnChooser columns={decl.columns} visible={visible} onToggle={toggleColumn} />
      </div>
      {canManage && decl.archive && ids.length > 0 && (
        <div class="selection-bar" role="status">
          {ids.length} selected
          {archived ? (
            <Button variant="primary" onClick={() => setPending({ kind: 'restore', ids })}>
              Restore selected
            </Button>
          ) : (
            <Button variant="danger" onClick={() => setPending({ kind: 'archive', ids })}>
              Archive selected
            </Button>
          )}
          <Button variant="ghost" onClick={() => setSelected(new Set())}>
            Clear
          </Button>
        </div>
      )}
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty
            title={
              params.search || Object.values(params.filters ?? {}).some(Boolean)
                ? 'Nothing matches'
                : archived
                  ? 'The archive is empty'
                  : `No ${decl.title.toLowerCase()} yet`
            }
          >
            {canManage && !archived && decl.create && !params.search && (
              <Button variant="primary" onClick={() => setEditing('new')}>
                Create the first one
              </Button>
            )}
          </Empty>
        </div>
      ) : (
        <div aria-busy={list.loading ? 'true' : undefined} style={{ opacity: list.loading ? 0.6 : 1 }}>
          <DataTable<Row>
            columns={decl.columns}
            rows={data.results}
            rowKey={(r) => r.id}
            visible={visible}
            caption={decl.title}
            ordering={params.ordering}
            onOrdering={(o) => list.setParams({ ordering: o })}
            selected={canManage && decl.archive ? selected : undefined}
            onSelected={canManage && decl.archive ? setSelected : undefined}
            actions={
              canManage
                ? (row) => (
                    <div class="row" style={{ justifyContent: 'flex-end' }}>
                      {statusAction(row)}
                      {!archived && decl.create && (
                        <Button size="small" onClick={() => setEditing(row)}>
                          Edit
                        </Button>
                      )}
                      {decl.archive &&
                        (archived ? (
                          <Button size="small" onClick={() => setPending({ kind: 'restore', ids: [row.id] })}>
                            Restore
                          </Button>
                        ) : (
                          <Button size="small" onClick={() => setPending({ kind: 'archive', ids: [row.id] })}>
                            Archive
                          </Button>
                        ))}
                    </div>
                  )
                : undefined
            }
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
      {editing && (
        <ResourceForm
          decl={decl}
          record={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(row) => {
            toast(editing === 'new' ? `${decl.singular} created${row ? ` (#${row.id})` : ''}` : `${decl.singular} saved`, 'ok');
            setEditing(null);
            changed();
          }}
        />
      )}
      {deactivating && decl.deactivateDialog && (
        <decl.deactivateDialog
          row={deactivating}
          onClose={() => setDeactivating(null)}
          onDone={(message) => {
            toast(message ?? `${decl.singular} #${deactivating.id} is now inactive`, 'ok');
            setDeactivating(null);
            changed();
          }}
        />
      )}
      {pending && (
        <ConfirmDialog
          title={pending.kind === 'archive' ? `Archive ${pending.ids.length} record(s)?` : `Restore ${pending.ids.length} record(s)?`}
          message={
            pending.kind === 'archive' ? (
              <p>
                Archived {decl.title.toLowerCase()} disappear from lists and choices but keep their history. You can restore them from the
                Archived tab.
              </p>
            ) : (
              <p>The records come back to the current list.</p>
            )
          }
          confirmLabel={pending.kind === 'archive' ? 'Archive' : 'Restore'}
          danger={pending.kind === 'archive'}
          busy={busy}
          onConfirm={() => void runArchive()}
          onClose={() => setPending(null)}
        />
      )}
    </section>
  );
}
