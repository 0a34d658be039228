import { useEffect, useState } from 'preact/hooks';
import { api, errorMessage } from '../../api/client';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { ErrorState, Loading } from '../../ui/States';
import { useRefOptions } from '../resource/refOptions';
import type { RefDecl, Row } from '../resource/types';

interface OpenWork {
  open_parcels: number; open_routes: number;
  parcels: { id: number; hawb: string; status: string }[];
  routes: { id: number; name: string; status: string }[];
}

const DRIVERS: RefDecl = { endpoint: 'employee/driver-list', label: (r) => String(r.name ?? `#${String(r.id)}`) };
/** The dialog lists this many tracking numbers; the count says how many there are in all. */
const SHOWN = 12;

/**
 * Deactivating an account always asks first (issue 18 item 6). A driver who still holds parcels or
 * routes must say where they go: to another active driver, or back to the depot pool. The server
 * does both in the same transaction as the deactivation, and refuses (409) without a choice.
 */
export function DeactivateEmployeeDialog({ row, onDone, onClose }: { row: Row; onDone: () => void; onClose: () => void }) {
  const [work, setWork] = useState<OpenWork | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const [choice, setChoice] = useState<'driver' | 'depot'>('driver');
  const [driver, setDriver] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const { options } = useRefOptions(DRIVERS);

  const load = () => {
    setFailed(null);
    api.get<OpenWork>(`employee/${row.id}/open-work/`).then(setWork, setFailed);
  };
  useEffect(load, [row.id]);

  const hasWork = !!work && (work.open_parcels > 0 || work.open_routes > 0);
  const submit = async () => {
    if (hasWork && choice === 'driver' && !driver) { setError('Choose the driver who takes over'); return; }
    setBusy(true);
    setError('');
    try {
      const handover = !hasWork ? undefined : choice === 'driver' ? { to_driver: Number(driver) } : { return_to_depot: true };
      await api.post(`employee/${row.id}/status-change/`, { is_active: false, ...(handover ? { handover } : {}) });
      onDone();
    } catch (err) {
      setError(errorMessage(err));
      // Work may have changed meanwhile (a scan on the phone): show what is open now.
      load();
    } finally {
      setBusy(false);
    }
  };

  const others = options.filter((o) => o.value !== String(row.id));
  return (
    <Dialog title={`Deactivate ${String(row.name ?? `#${String(row.id)}`)}?`} onClose={onClose} narrow footer={<>
      <Button onClick={onClose}>Cancel</Button>
      <Button variant="danger" busy={busy} disabled={!work} onClick={() => void submit()}>Deactivate</Button>
    </>}>
      <p>The account can no longer log in and its sessions end at once.</p>
      {failed ? <ErrorState error={failed} onRetry={load} /> : !work ? <Loading /> : hasWork && (
        <div>
          <p><strong>{work.open_parcels} open parcel(s)</strong> and <strong>{work.open_routes} open route(s)</strong> are still with this driver:</p>
          <p class="muted" data-testid="open-parcels">
            {work.parcels.slice(0, SHOWN).map((p) => p.hawb).join(', ')}{work.parcels.length > SHOWN ? ` and ${work.parcels.length - SHOWN} more` : ''}
          </p>
          <fieldset>
            <legend>What happens to them?</legend>
            <label><input type="radio" name="handover" checked={choice === 'driver'} onChange={() => setChoice('driver')} /> Hand them to another driver</label>
            <label><input type="radio" name="handover" checked={choice === 'depot'} onChange={() => setChoice('depot')} /> Return them to the depot (unassigned)</label>
          </fieldset>
          {choice === 'driver' && (
            <SelectField name="handover-driver" label="Driver" value={driver} onValue={setDriver} options={others} placeholder="Choose a driver" required />
          )}
        </div>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </Dialog>
  );
}
