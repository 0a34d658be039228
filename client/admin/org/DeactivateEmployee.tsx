import { useEffect, useState } from 'preact/hooks';
import { api, errorMessage } from '../../api/client';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { ErrorState, Loading } from '../../ui/States';
import { forgetRefs, useRefOptions } from '../resource/refOptions';
import type { RefDecl, Row } from '../resource/types';
import './deactivate.css';

interface OpenWork {
  open_parcels: number;
  open_routes: number;
  parcels: { id: number; hawb: string; status: string; must_return: boolean }[];
  routes: { id: number; name: string; status: string }[];
}

const DRIVERS: RefDecl = { endpoint: 'employee/driver-list', label: (r) => String(r.name ?? `#${String(r.id)}`) };
/** The dialog lists this many tracking numbers; the count says how many there are in all. */
const SHOWN = 12;

const hawbs = (list: { hawb: string }[]) =>
  list
    .slice(0, SHOWN)
    .map((p) => p.hawb)
    .join(', ') + (list.length > SHOWN ? ` and ${list.length - SHOWN} more` : '');
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Deactivating an account always asks first (issue 18 item 6). A driver who still holds parcels or
 * routes must say where they go: to another active driver, or back to the depot pool. The server
 * does both in the same transaction as the deactivation, and refuses (409) without a choice.
 * Parcels that used their delivery attempts can only go back to the depot, whatever is chosen; the
 * dialog says which beforehand. Afterwards it asks the server again and lists anything still left.
 */
export function DeactivateEmployeeDialog({ row, onDone, onClose }: { row: Row; onDone: (message?: string) => void; onClose: () => void }) {
  const [work, setWork] = useState<OpenWork | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const [choice, setChoice] = useState<'driver' | 'depot'>('driver');
  const [driver, setDriver] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [left, setLeft] = useState<OpenWork | null>(null);
  const { options, failed: driversFailed } = useRefOptions(DRIVERS);
  const name = String(row.name ?? `#${String(row.id)}`);

  const fetchWork = () => api.get<OpenWork>(`employee/${row.id}/open-work/`);
  const load = () => {
    setFailed(null);
    fetchWork().then(setWork, setFailed);
  };
  useEffect(load, [row.id]);

  const hasWork = !!work && (work.open_parcels > 0 || work.open_routes > 0);
  const mustReturn = work?.parcels.filter((p) => p.must_return) ?? [];
  const others = options.filter((o) => o.value !== String(row.id));
  const taker = others.find((o) => o.value === driver)?.label ?? '';
  // Nobody to hand over to (the last driver leaves, or the list did not load): the depot is the only choice.
  const loadedDrivers = options.length > 0 || driversFailed;
  const noTaker = loadedDrivers && others.length === 0;
  useEffect(() => {
    if (noTaker) setChoice('depot');
  }, [noTaker]);

  const submit = async () => {
    if (hasWork && choice === 'driver' && !driver) {
      setError('Choose the driver who takes over');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const handover = !hasWork ? undefined : choice === 'driver' ? { to_driver: Number(driver) } : { return_to_depot: true };
      await api.post(`employee/${row.id}/status-change/`, { is_active: false, ...(handover ? { handover } : {}) });
      // The account is no longer a driver anyone can hand work to.
      forgetRefs(DRIVERS.endpoint);
      const summary =
        !hasWork || !work
          ? `${name} is now inactive`
          : choice === 'driver'
            ? `${name} is now inactive; ${count(work.open_parcels - mustReturn.length, 'parcel', 'parcels')} and ${count(work.open_routes, 'route', 'routes')} went to ${taker}` +
              (mustReturn.length ? `, ${count(mustReturn.length, 'parcel', 'parcels')} back to the depot` : '')
            : `${name} is now inactive; ${count(work.open_parcels, 'parcel', 'parcels')} and ${count(work.open_routes, 'route', 'routes')} back to the depot`;
      // Whatever the server could not move stays listed here rather than vanishing with the account.
      const after = hasWork ? await fetchWork().catch(() => null) : null;
      if (after && (after.open_parcels > 0 || after.open_routes > 0)) setLeft(after);
      else onDone(summary);
    } catch (err) {
      setError(errorMessage(err));
      // Work may have changed meanwhile (a scan on the phone): show what is open now.
      load();
    } finally {
      setBusy(false);
    }
  };

  if (left) {
    return (
      <Dialog
        title={`${name} is inactive`}
        onClose={() => onDone()}
        narrow
        footer={
          <Button variant="primary" onClick={() => onDone()}>
            Close
          </Button>
        }
      >
        <div data-testid="remaining-work" role="alert">
          <p>
            <strong>Still with this account:</strong> {count(left.open_parcels, 'parcel', 'parcels')} and{' '}
            {count(left.open_routes, 'route', 'routes')}.
          </p>
          {left.parcels.length > 0 && <p class="mono">{hawbs(left.parcels)}</p>}
          {left.routes.length > 0 && <p>Routes: {left.routes.map((r) => r.name).join(', ')}</p>}
          <p class="muted">Open them from the packages list (filter by this driver) and assign or return them one by one.</p>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      title={`Deactivate ${name}?`}
      onClose={onClose}
      narrow
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" busy={busy} disabled={!work} onClick={() => void submit()}>
            Deactivate
          </Button>
        </>
      }
    >
      <p>The account can no longer log in and its sessions end at once.</p>
      {failed ? (
        <ErrorState error={failed} onRetry={load} />
      ) : !work ? (
        <Loading label="Looking for open parcels and routes…" />
      ) : hasWork ? (
        <div class="handover">
          <p>
            <strong>{count(work.open_parcels, 'open parcel', 'open parcels')}</strong> and{' '}
            <strong>{count(work.open_routes, 'open route', 'open routes')}</strong> are still with this driver:
          </p>
          {work.parcels.length > 0 && (
            <p class="mono handover-list" data-testid="open-parcels">
              {hawbs(work.parcels)}
            </p>
          )}
          {work.routes.length > 0 && (
            <p class="handover-list" data-testid="open-routes">
              Routes: {work.routes.map((r) => r.name).join(', ')}
            </p>
          )}
          <fieldset>
            <legend>What happens to them?</legend>
            <label class="check">
              <input
                type="radio"
                name="handover"
                checked={choice === 'driver'}
                disabled={noTaker}
                onChange={() => {
                  setChoice('driver');
                  setError('');
                }}
              />{' '}
              Hand them to another driver
            </label>
            {noTaker && (
              <p class="muted" style={{ margin: 0 }}>
                {driversFailed ? 'The list of drivers could not be loaded.' : 'There is no other active driver.'}
              </p>
            )}
            <label class="check">
              <input
                type="radio"
                name="handover"
                checked={choice === 'depot'}
                onChange={() => {
                  setChoice('depot');
                  setError('');
                }}
              />{' '}
              Return them to the depot (unassigned)
            </label>
          </fieldset>
          {choice === 'driver' && (
            <SelectField
              name="handover-driver"
              label="Driver"
              value={driver}
              onValue={(v) => {
                setDriver(v);
                setError('');
              }}
              options={others}
              placeholder="Choose a driver"
              required
              error={error === 'Choose the driver who takes over' ? error : undefined}
            />
          )}
          {choice === 'driver' && mustReturn.length > 0 && (
            <p class="handover-note" data-testid="must-return">
              {hawbs(mustReturn)} used {mustReturn.length === 1 ? 'its' : 'their'} delivery attempts:{' '}
              {mustReturn.length === 1 ? 'it goes' : 'they go'} back to the depot, not to the driver.
            </p>
          )}
        </div>
      ) : (
        <p class="muted" data-testid="no-open-work">
          No open parcels or routes.
        </p>
      )}
      {error && error !== 'Choose the driver who takes over' && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
