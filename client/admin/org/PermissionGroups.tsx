import { useEffect, useState } from 'preact/hooks';
import { api, errorMessage } from '../../api/client';
import { fetchAll } from '../../api/paging';
import { useList } from '../../api/useList';
import { can } from '../../app/access';
import type { Session } from '../../app/session';
import { Button } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { ConfirmDialog } from '../../ui/Dialog';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { ORG_PATHS } from '../routes/paths';
import { GroupForm, type Group } from './GroupForm';
import { UserGroups } from './UserGroups';
import './org.css';

const COLUMNS: Column<Group>[] = [
  { key: 'name', label: 'Group', sort: 'name', render: (g) => <strong>{g.name}</strong> },
  { key: 'description', label: 'Description' },
  {
    key: 'permissions',
    label: 'Permissions',
    numeric: true,
    render: (g) => <span title={g.permissions.join(', ')}>{g.permissions.length}</span>,
  },
  { key: 'users', label: 'Members', numeric: true, render: (g) => g.users.length },
];

/** Permission groups (a checkbox grid of every permission) and which groups an employee is in. */
export default function PermissionGroups({ session }: { session: Session }) {
  const canManage = can(session.user.role, 'permission.manage');
  const list = useList<Group>(ORG_PATHS.groups, { ordering: 'name', pageSize: 50 });
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [busy, setBusy] = useState(false);
  const [all, setAll] = useState<Group[]>([]);
  const [tick, setTick] = useState(0);
  const { data, params } = list;

  useEffect(() => {
    fetchAll<Group>(ORG_PATHS.groups).then(setAll, () => setAll([]));
  }, [tick]);
  const changed = () => {
    list.reload();
    setTick((n) => n + 1);
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      const res = await api.delete<{ message: string }>(ORG_PATHS.group(deleting.id));
      toast(res.message, 'ok');
      setDeleting(null);
      changed();
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="groups-title">
      <div class="page-head">
        <h1 id="groups-title">Permission groups</h1>
        <span class="spacer" />
        {canManage && (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New group
          </Button>
        )}
      </div>
      <p class="muted">A group adds permissions to its members on top of their role's defaults.</p>
      <div class="org-split">
        <div>
          <div class="toolbar">
            <div class="field search">
              <label for="group-search">Search</label>
              <input
                id="group-search"
                class="input"
                type="search"
                placeholder="Name or description"
                value={params.search ?? ''}
                onInput={(e) => list.setParams({ search: (e.currentTarget as HTMLInputElement).value })}
              />
            </div>
          </div>
          {list.error ? (
            <ErrorState error={list.error} onRetry={list.reload} />
          ) : !data ? (
            <Loading />
          ) : data.results.length === 0 ? (
            <div class="card">
              <Empty title={params.search ? 'No group matches' : 'No permission groups yet'}>
                {canManage && !params.search && (
                  <Button variant="primary" onClick={() => setEditing('new')}>
                    Create the first one
                  </Button>
                )}
              </Empty>
            </div>
          ) : (
            <div aria-busy={list.loading ? 'true' : undefined}>
              <DataTable<Group>
                columns={COLUMNS}
                rows={data.results}
                rowKey={(g) => g.id}
                caption="Permission groups"
                ordering={params.ordering}
                onOrdering={(o) => list.setParams({ ordering: o })}
                actions={
                  canManage
                    ? (g) => (
                        <div class="row">
                          <Button size="small" onClick={() => setEditing(g)}>
                            Edit
                          </Button>
                          <Button size="small" variant="ghost" onClick={() => setDeleting(g)}>
                            Delete
                          </Button>
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
        </div>
        <UserGroups groups={all} canManage={canManage} onSaved={changed} />
      </div>
      {editing && (
        <GroupForm
          group={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(g) => {
            toast(`${editing === 'new' ? 'Group created' : 'Group saved'}: ${g.name}`, 'ok');
            setEditing(null);
            changed();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete"
          danger
          busy={busy}
          onConfirm={() => void remove()}
          onClose={() => setDeleting(null)}
          message={<p>Its {deleting.users.length} member(s) lose its permissions from their next request.</p>}
        />
      )}
    </section>
  );
}
