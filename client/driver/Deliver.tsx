import { useRef, useState } from 'preact/hooks';
import { navigate } from '../app/router';
import { useStore } from '../app/store';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { Empty, Loading } from '../ui/States';
import { engine } from './engine';
import { position } from './geo';
import { addressOf } from './maps';
import { PhotoPicker } from './PhotoPicker';
import { maxAttempts } from './routeCache';
import { SignaturePad, type SignatureHandle } from './SignaturePad';
import { hold } from './undo';
import { useConfirmOnce } from './useConfirmOnce';
import { canDeliver, usePackage } from './usePackage';

export const MAX_PHOTOS = 5;

interface Draft { photos: Blob[]; signature: Blob | null; recipient: string; note: string }
/** What an undone delivery held, so the driver gets the form back as it was. */
const drafts = new Map<number, Draft>();

export default function Deliver({ id }: { id: number }) {
  const { p, loaded } = usePackage(id);
  const max = useStore(maxAttempts);
  const [draft] = useState<Draft | undefined>(() => { const d = drafts.get(id); drafts.delete(id); return d; });
  const [photos, setPhotos] = useState<Blob[]>(draft?.photos ?? []);
  const [recipient, setRecipient] = useState(draft?.recipient ?? '');
  const [note, setNote] = useState(draft?.note ?? '');
  const [hasInk, setInk] = useState(false);
  const [error, setError] = useState('');
  const pad = useRef<SignatureHandle | null>(null);
  const { busy, run, unlock } = useConfirmOnce();

  if (!loaded) return <Loading />;
  if (!p) return <Empty title="This parcel is not on your phone" />;
  if (!canDeliver(p, max)) return <Empty title={`Parcel ${p.hawb} cannot be delivered now`}>It is {p.status.replace(/_/g, ' ')}.</Empty>;

  const confirm = () => run(async () => {
    try {
      const signature = (await pad.current?.toBlob()) ?? null;
      if (!photos.length && !signature && !note.trim()) {
        setError('Add a photo, a signature, or a note saying where you left the parcel.');
        return false;
      }
      const place = await position(3000);
      const e = engine();
      const action = e.actions.deliver(p.id, {
        photos: photos.map((b) => ({ bytes: b, mime: 'image/jpeg' })),
        signature: signature ? { bytes: signature, mime: 'image/png' } : undefined,
        recipient_name: recipient.trim() || undefined, note: note.trim() || undefined, parcel: p, ...place,
      });
      const saved: Draft = { photos, signature, recipient, note };
      await hold(`Delivered ${p.hawb}`, action, p.id, () => { drafts.set(p.id, saved); unlock(); navigate(`/driver/deliver/${p.id}`); });
      navigate('/driver');
      return true;
    } catch (err) {
      // Not saved on the phone (storage full, private mode): say so, keep the form as it is.
      setError(`The delivery was NOT saved on this phone: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  });

  return (
    <div class="drv-screen" data-testid="deliver-screen">
      <h1>Deliver {p.hawb}</h1>
      <p class="muted">{p.customer_name ?? ''} · {addressOf(p)}</p>
      <h2>Photos</h2>
      <PhotoPicker photos={photos} onChange={setPhotos} max={MAX_PHOTOS} />
      <h2>Signature</h2>
      <SignaturePad handle={pad} onInk={setInk} initial={draft?.signature ?? null} />
      <TextField label="Received by" value={recipient} onValue={setRecipient} autoComplete="off" placeholder="Name of the person" />
      <TextField label="Note" value={note} onValue={setNote} placeholder="e.g. left with the neighbour at no. 12" />
      {error && <div class="form-error" role="alert">{error}</div>}
      <Button variant="primary" class="xl" busy={busy} onClick={() => void confirm()} data-testid="confirm-delivery">
        Confirm delivery{hasInk ? ' with signature' : ''}
      </Button>
      <p class="muted small">Time and (if allowed) position are recorded. You have 5 seconds to undo.</p>
    </div>
  );
}
