import { useState } from 'preact/hooks';
import type { RouteRecord, RouteStatus } from '../../../shared/schemas/routes';
import { api, errorMessage } from '../../api/client';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { toast } from '../../ui/toast';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';
import { NEXT_STATUS, ROUTE_STATUS_LABELS } from './format';
import { ROUTE_PATHS } from './paths';

interface AssignAnswer {
  message: string;
  skipped: { package: number; reason: string }[];
}

/** First driver through assign-driver; a route that has one moves with assign-other-driver. */
export function AssignPanel({ route, onDone }: { route: RouteRecord; onDone: () => void }) {
  const drivers = useRefOptions(REFS.driver);
  const [driver, setDriver] = useState('');
  const [busy, setBusy] = useState(false);
  const live = route.status === 'planned' || route.status === 'in_progress';
  const other = route.driver != null;
  const options = drivers.options.filter((o) => o.value !== String(route.driver ?? ''));

  const run = async () => {
    setBusy(true);
    try {
      const path = other ? ROUTE_PATHS.assignOtherDriver(route.id) : ROUTE_PATHS.assignDriver(route.id);
      const res = await api.post<AssignAnswer>(path, { driver: Number(driver) });
      toast(res.message, 'ok');
      if (res.skipped.length)
        toast(`${res.skipped.length} parcel(s) skipped: ${res.skipped.map((s) => s.reason).join('; ')}`, 'info', 8000);
      setDriver('');
      onDone();
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="panel" aria-labelledby="assign-title">
      <h2 id="assign-title">Driver</h2>
      <p class="current-driver">
        {route.driver_name ? (
          <>
            Assigned to <strong>{route.driver_name}</strong>
          </>
        ) : (
          <span class="muted">No driver yet</span>
        )}
      </p>
      <div class="row assign-row">
        <SelectField
          name="assign-driver"
          label={other ? 'Move to another driver' : 'Assign to driver'}
          value={driver}
          onValue={setDriver}
          options={options}
          placeholder="Choose a driver…"
        />
        <Button variant="primary" busy={busy} disabled={!driver || !live} onClick={() => void run()}>
          {other ? 'Move route' : 'Assign'}
        </Button>
      </div>
      {!live && <p class="hint muted">Only planned or running routes change driver.</p>}
    </div>
  );
}

const VERB: Record<RouteStatus, string> = { planned: 'Reopen', in_progress: 'Start', completed: 'Complete', cancelled: 'Cancel route' };

export function StatusPanel({ route, onDone }: { route: RouteRecord; onDone: () => void }) {
  const [pending, setPending] = useState<RouteStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const next = NEXT_STATUS[route.status];

  const run = async (status: RouteStatus) => {
    setBusy(true);
    try {
      const res = await api.post<{ message: string }>(ROUTE_PATHS.statusChange(route.id), { status });
      toast(res.message, 'ok');
      setPending(null);
      onDone();
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  if (next.length === 0) return null;
  return (
    <div class="row status-actions">
      {next.map((s) => (
        <Button key={s} onClick={() => setPending(s)}>
          {VERB[s]}
        </Button>
      ))}
      {pending && (
        <ConfirmDialog
          title={`${VERB[pending]}: ${route.name}?`}
          confirmLabel={VERB[pending]}
          danger={pending === 'cancelled'}
          busy={busy}
          message={
            <p>
              The route becomes “{ROUTE_STATUS_LABELS[pending]}”.
              {pending === 'cancelled' ? ' Its parcels keep their driver and can go on another route.' : ''}
            </p>
          }
          onConfirm={() => void run(pending)}
          onClose={() => setPending(null)}
        />
      )}
    </div>
  );
}
