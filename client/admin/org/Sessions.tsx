import { useEffect, useState } from 'preact/hooks';
import type { Role } from '../../../shared/roles';
import { api, errorMessage } from '../../api/client';
import { fetchAll } from '../../api/paging';
import { ROLE_LABELS } from '../../app/access';
import type { Session } from '../../app/session';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { ORG_PATHS } from '../routes/paths';
import './org.css';
import { dateTime } from '../../ui/when';

interface Employee {
  id: number;
  name: string;
  email: string;
  role: Role;
}
interface Device {
  id: number;
  kind: 'web' | 'mobile';
  device_id: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
  current: boolean;
}

const when = (iso: string | null) => dateTime(iso, 'never');

/**
 * `#/org/sessions`: where an account is signed in, and signing out one device (a lost or stolen
 * phone) without touching the others. The server applies the rank rule; its refusal is shown as is.
 */
export default function Sessions({ session }: { session: Session }) {
  const [people, setPeople] = useState<Employee[] | null>(null);
  const [who, setWho] = useState('');
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    fetchAll<Employee>(ORG_PATHS.employees, { is_active: 'true' }).then(
      (rows) => setPeople(rows.filter((r) => r.id !== session.user.id)),
      (err: unknown) => setError(err),
    );
  }, [session.user.id]);

  useEffect(() => {
    setDevices(null);
    setError(null);
    if (!who) return;
    let live = true;
    api.get<{ results: Device[] }>(ORG_PATHS.sessions(Number(who))).then(
      (r) => {
        if (live) setDevices(r.results);
      },
      (err: unknown) => {
        if (live) setError(err);
      },
    );
    return () => {
      live = false;
    };
  }, [who, tick]);

  const signOut = async (d: Device) => {
    setBusy(d.id);
    try {
      const r = await api.delete<{ message: string }>(`${ORG_PATHS.sessions(Number(who))}${d.id}/`);
      toast(r.message, 'ok');
      setTick((n) => n + 1);
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="sessions-title" class="stack">
      <div class="page-head">
        <h1 id="sessions-title">Signed-in devices</h1>
      </div>
      <p class="muted">
        Sign out a lost or stolen phone, or a browser left open. Office sessions also end by themselves after a period without use.
      </p>
      <div class="card stack">
        {people === null && !error ? (
          <Loading />
        ) : (
          <SelectField
            name="employee"
            label="Employee"
            value={who}
            onValue={setWho}
            placeholder="Choose an employee…"
            options={(people ?? []).map((p) => ({ value: String(p.id), label: `${p.name} — ${ROLE_LABELS[p.role] ?? p.role}` }))}
          />
        )}
        {error != null && <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />}
        {who && devices === null && error == null && <Loading />}
        {devices && devices.length === 0 && <Empty title="Not signed in anywhere">This account has no live session.</Empty>}
        {devices && devices.length > 0 && (
          <ul class="session-list" aria-label="Sessions">
            {devices.map((d) => (
              <li key={d.id} class="session-row">
                <div>
                  <strong>
                    {d.kind === 'mobile' ? 'Phone app' : 'Web browser'}
                    {d.device_id ? ` · ${d.device_id}` : ''}
                  </strong>
                  <div class="muted small">
                    Last used {when(d.last_used_at)} · signed in {when(d.created_at)}
                  </div>
                </div>
                <Button
                  variant="danger"
                  size="big"
                  busy={busy === d.id}
                  onClick={() => void signOut(d)}
                  aria-label={`Sign out ${d.device_id ?? `session ${d.id}`}`}
                >
                  Sign out this device
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
