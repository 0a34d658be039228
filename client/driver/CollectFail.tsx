import { useState } from 'preact/hooks';
import { COLLECTION_FAIL_LABELS, COLLECTION_FAIL_REASONS, collectionFailProblem, type CollectionFailReason } from '../../shared/collection';
import { navigate } from '../app/router';
import type { SessionInfo } from '../sync/index';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { Empty, Loading } from '../ui/States';
import { engine } from './engine';
import { ReasonChoice } from './ReasonChoice';
import { position } from './geo';
import { useConfirmOnce } from './useConfirmOnce';
import { usePackage } from './usePackage';

/**
 * A collection that could not be made at the pickup point (issue 32): why (the one list,
 * shared/collection.ts) and a note. Queued in the outbox like every driver action, so it works with
 * no signal; the office takes the parcel and its delivery off the route when it arrives.
 */
export default function CollectFail({ id, me }: { id: number; me: SessionInfo }) {
  const { p, loaded } = usePackage(id);
  const [reason, setReason] = useState<CollectionFailReason | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const { busy, run } = useConfirmOnce();

  if (!loaded) return <Loading />;
  if (!p) return <Empty title="This parcel is not on your phone" />;
  // The rule the server decides with: only a parcel still waiting at its pickup point for this driver.
  if (collectionFailProblem(p, me.id) != null)
    return (
      <Empty title={`Parcel ${p.hawb} has no collection to record`}>
        It is {p.status.replace(/_/g, ' ')}
        {p.assigned_to_id !== me.id ? ' and no longer yours to collect' : ''}.
      </Empty>
    );

  const confirm = async () => {
    if (reason == null) {
      setError('Choose what went wrong.');
      return;
    }
    await run(async () => {
      try {
        const place = await position(3000);
        const e = engine();
        await e.enqueue(e.actions.collectionFail(p.id, { reason, note: note.trim() || undefined, parcel: p, ...place }));
        navigate('/driver');
        return true;
      } catch (err) {
        setError(`This was NOT saved on the phone: ${err instanceof Error ? err.message : String(err)}`);
        return false;
      }
    });
  };

  return (
    <div class="drv-screen" data-testid="collect-fail-screen">
      <h1>Could not collect {p.hawb}</h1>
      <div class="note">The parcel and its delivery come off your route; the office plans the collection again.</div>
      <ReasonChoice
        options={COLLECTION_FAIL_REASONS.map((r) => ({ id: r, name: COLLECTION_FAIL_LABELS[r] }))}
        chosen={reason}
        onChoose={setReason}
      />
      <TextField label="Note" value={note} onValue={setNote} placeholder="e.g. roller door down, no answer on the phone" />
      {error && (
        <div class="form-error" role="alert">
          {error}
        </div>
      )}
      <Button variant="danger" class="xl" busy={busy} onClick={() => void confirm()} data-testid="confirm-collect-fail">
        Record collection not made
      </Button>
    </div>
  );
}
