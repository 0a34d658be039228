import { useState } from 'preact/hooks';
import { api, errorMessage } from '../../api/client';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { PATHS } from '../../api/paths';
import { useRefOptions } from '../resource/refOptions';
import { REFS } from '../resource/declarations';

/** Assigns the chosen parcels to one driver in a single all-or-nothing call. */
export function AssignDialog({ ids, onClose, onDone }: { ids: number[]; onClose: () => void; onDone: (message: string) => void }) {
  const { options, failed } = useRefOptions(REFS.driver);
  const [driver, setDriver] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!driver) {
      setError('Choose a driver');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const res = await api.post<{ message: string }>(PATHS.assignDriver, { driver: Number(driver), packages: ids });
      onDone(res.message);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={`Assign ${ids.length} package(s)`}
      narrow
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} onClick={() => void submit()}>
            Assign
          </Button>
        </>
      }
    >
      <SelectField
        name="driver"
        label="Driver"
        value={driver}
        onValue={setDriver}
        options={options}
        placeholder="Choose a driver…"
        required
        error={error || undefined}
        hint={failed ? 'The driver list could not be loaded' : options.length === 0 ? 'Loading drivers…' : undefined}
      />
    </Dialog>
  );
}
