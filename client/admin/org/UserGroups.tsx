import { useEffect, useState } from 'preact/hooks';
import type { Permission } from '../../../shared/permissions';
import type { Role } from '../../../shared/roles';
import { api, errorMessage, request } from '../../api/client';
import { fetchAll } from '../../api/paging';
import { ROLE_LABELS } from '../../app/access';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/Field';
import { toast } from '../../ui/toast';
import { ORG_PATHS } from '../routes/paths';
import type { Group } from './GroupForm';

interface Employee {
  id: number;
  name: string;
  email: string;
  role: Role;
}
interface UserGroupsAnswer {
  user: number;
  groups: { id: number; name: string }[];
  permissions: Permission[];
}

/** Which groups one employee belongs to (PUT replaces the whole set). */
export function UserGroups({ groups, canManage, onSaved }: { groups: readonly Group[]; canManage: boolean; onSaved: () => void }) {
  const [people, setPeople] = useState<Employee[]>([]);
  const [who, setWho] = useState('');
  const [current, setCurrent] = useState<UserGroupsAnswer | null>(null);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    fetchAll<Employee>(ORG_PATHS.employees, { is_active: 'true' }).then(
      (rows) => setPeople(rows.filter((r) => r.role !== 'company')),
      (err: unknown) => toast(errorMessage(err), 'bad'),
    );
  }, []);

  useEffect(() => {
    setCurrent(null);
    if (!who) return;
    let live = true;
    api.get<UserGroupsAnswer>(ORG_PATHS.userGroups(Number(who))).then(
      (r) => {
        if (!live) return;
        setCurrent(r);
        setChosen(new Set(r.groups.map((g) => g.id)));
      },
      (err: unknown) => toast(errorMessage(err), 'bad'),
    );
    return () => {
      live = false;
    };
  }, [who]);

  const save = async () => {
    setBusy(true);
    try {
      const r = await request<UserGroupsAnswer>('PUT', ORG_PATHS.userGroups(Number(who)), { body: { groups: [...chosen] } });
      setCurrent(r);
      const person = people.find((p) => String(p.id) === who);
      toast(`${person?.name ?? 'Employee'}: ${r.groups.length ? r.groups.map((g) => g.name).join(', ') : 'no groups'}`, 'ok');
      onSaved();
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  const toggle = (id: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };

  return (
    <div class="card stack" aria-labelledby="user-groups-title">
      <h2 id="user-groups-title" style={{ margin: 0 }}>
        Groups of an employee
      </h2>
      <SelectField
        name="employee"
        label="Employee"
        value={who}
        onValue={setWho}
        placeholder="Choose an employee…"
        options={people.map((p) => ({ value: String(p.id), label: `${p.name} — ${ROLE_LABELS[p.role] ?? p.role}` }))}
      />
      {who && !current && <p class="muted">Loading…</p>}
      {current && (
        <>
          {groups.length === 0 ? (
            <p class="muted">Create a group first.</p>
          ) : (
            <div class="group-checks" role="group" aria-label="Permission groups">
              {groups.map((g) => (
                <label key={g.id} class="check">
                  <input
                    type="checkbox"
                    name={`group-${g.id}`}
                    checked={chosen.has(g.id)}
                    disabled={!canManage}
                    onChange={(e) => toggle(g.id, (e.currentTarget as HTMLInputElement).checked)}
                  />
                  {g.name}
                </label>
              ))}
            </div>
          )}
          <p class="muted small" data-testid="effective-permissions">
            {current.permissions.length} permission(s) in effect (role defaults and groups).
          </p>
          {canManage && (
            <div class="row end">
              <Button variant="primary" busy={busy} onClick={() => void save()}>
                Save groups
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
