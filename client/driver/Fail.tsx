import { useState } from 'preact/hooks';
import { navigate } from '../app/router';
import { useStore } from '../app/store';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { Empty, Loading } from '../ui/States';
import { failures } from './day';
import { engine } from './engine';
import { position } from './geo';
import { noReasonsNote } from './failReasons';
import { useFailedStatuses, useSyncStatus } from './hooks';
import { PhotoPicker } from './PhotoPicker';
import { ReasonChoice } from './ReasonChoice';
import { maxAttempts } from './routeCache';
import { hold } from './undo';
import { useConfirmOnce } from './useConfirmOnce';
import { canFail, usePackage } from './usePackage';

/** A failed attempt: a reason from the office's list (kept on the phone), a note and an optional photo. */
export default function Fail({ id }: { id: number }) {
  const { p, loaded } = usePackage(id);
  const reasons = useFailedStatuses();
  const sync = useSyncStatus();
  const max = useStore(maxAttempts);
  const [reason, setReason] = useState<number | null>(null);
  const [note, setNote] = useState('');
  const [photos, setPhotos] = useState<Blob[]>([]);
  const [error, setError] = useState('');
  const { busy, run, unlock } = useConfirmOnce();

  if (!loaded) return <Loading />;
  if (!p) return <Empty title="This parcel is not on your phone" />;
  if (!canFail(p, max))
    return (
      <Empty title={`Parcel ${p.hawb} cannot be marked failed now`}>
        Only a parcel on the van can be. It is {p.status.replace(/_/g, ' ')}.
      </Empty>
    );
  const attempt = failures(p) + 1;
  const none = noReasonsNote(reasons.length, sync.lastSyncedAt);
  const last = attempt >= max;

  const confirm = async () => {
    if (reason == null) {
      setError('Choose what went wrong.');
      return;
    }
    await run(async () => {
      try {
        const place = await position(3000);
        const e = engine();
        const action = e.actions.fail(p.id, {
          failed_delivery_status: reason,
          note: note.trim() || undefined,
          photo: photos[0] ? { bytes: photos[0], mime: 'image/jpeg' } : undefined,
          parcel: p,
          ...place,
        });
        await hold(`Failed ${p.hawb}`, action, p.id, () => {
          unlock();
          navigate(`/driver/fail/${p.id}`);
        });
        navigate('/driver');
        return true;
      } catch (err) {
        setError(`This was NOT saved on the phone: ${err instanceof Error ? err.message : String(err)}`);
        return false;
      }
    });
  };

  return (
    <div class="drv-screen" data-testid="fail-screen">
      <h1>Could not deliver {p.hawb}</h1>
      <div class={last ? 'must-return' : 'note'} role={last ? 'alert' : undefined} data-testid="attempt-note">
        Attempt {attempt} of {max}.
        {last ? ' After this the parcel must go back to the depot.' : ' It can be tried again: scan it onto the van next time.'}
      </div>
      <ReasonChoice options={reasons} chosen={reason} onChoose={setReason}>
        {none && (
          <p class="note" role="status" data-testid="no-reasons">
            {none}
          </p>
        )}
      </ReasonChoice>
      <TextField label="Note" value={note} onValue={setNote} placeholder="e.g. gate locked, no answer on the phone" />
      <PhotoPicker photos={photos} onChange={setPhotos} max={1} label="Add a photo" />
      {error && (
        <div class="form-error" role="alert">
          {error}
        </div>
      )}
      <Button variant="danger" class="xl" busy={busy} disabled={!!none} onClick={() => void confirm()} data-testid="confirm-fail">
        Record failed delivery
      </Button>
    </div>
  );
}
