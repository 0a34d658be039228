import { useRef, useState } from 'preact/hooks';
import {
  codeMatches,
  DOOR_OUTCOMES,
  ID_TYPE_LABELS,
  ID_TYPES,
  NO_REQUIREMENTS,
  proofMissing,
  type DoorOutcome,
  type DoorProof,
  type IdType,
} from '../../shared/door';
import { localDay } from '../../shared/time/zone';
import { checkCollection, COD_METHODS, minimumToCollect, type CodMethod, type CodOnPhone, type Collection } from '../../shared/cod';
import { formatMinor, parseMinor } from '../../shared/money';
import { CodDue, codMoney } from './CodDue';
import { navigate } from '../app/router';
import { useStore } from '../app/store';
import type { DoorFieldsIn } from '../sync/actions';
import { Button } from '../ui/Button';
import { SelectField, TextField } from '../ui/Field';
import { Empty, Loading } from '../ui/States';
import { useScanner } from '../ui/useScanner';
import { DoorNeeds } from './DoorNeeds';
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

interface Draft {
  photos: Blob[];
  signature: Blob | null;
  recipient: string;
  note: string;
  outcome: DoorOutcome;
  scanned: string;
  dob: string;
  idType: string;
  codAmount: string;
  codMethod: CodMethod;
}
/** What an undone delivery held, so the driver gets the form back as it was. */
const drafts = new Map<number, Draft>();

const METHOD_LABELS: Record<CodMethod, string> = { cash: 'Cash', card: "Card (company's terminal)" };

/** Why the phone refuses the collection, in the driver's words and money. */
function collectionProblem(reason: 'missing' | 'short' | 'over', cod: CodOnPhone, got: number): string {
  const due = minimumToCollect(cod);
  if (reason === 'over') return `Only ${codMoney(cod.amount_cents, cod.currency)} is due: do not take more`;
  if (reason === 'short')
    return `Collected ${codMoney(got, cod.currency)} of the ${codMoney(due, cod.currency)} due. Call the office to waive the rest, sync, then deliver`;
  return `Collect ${codMoney(due, cod.currency)} on delivery, or ask the office to waive it`;
}

const OUTCOME_LABELS: Record<DoorOutcome, string> = {
  handed: 'Handed over',
  safe_place: 'Left in the safe place',
  neighbour: 'Left with the neighbour',
};

export default function Deliver({ id }: { id: number }) {
  const { p, loaded } = usePackage(id);
  const max = useStore(maxAttempts);
  const [draft] = useState<Draft | undefined>(() => {
    const d = drafts.get(id);
    drafts.delete(id);
    return d;
  });
  const [photos, setPhotos] = useState<Blob[]>(draft?.photos ?? []);
  const [recipient, setRecipient] = useState(draft?.recipient ?? '');
  const [note, setNote] = useState(draft?.note ?? '');
  const [outcome, setOutcome] = useState<DoorOutcome>(draft?.outcome ?? 'handed');
  const [scanned, setScanned] = useState(draft?.scanned ?? '');
  const [dob, setDob] = useState(draft?.dob ?? '');
  const [idType, setIdType] = useState(draft?.idType ?? '');
  // What was collected (issue 34): filled with what is due, the driver corrects it to what was paid.
  // Null until the driver types: the parcel's copy may load after the first render.
  const [typedAmount, setCodAmount] = useState<string | null>(draft?.codAmount ?? null);
  const codAmount = typedAmount ?? (p?.cod ? formatMinor(minimumToCollect(p.cod), p.cod.currency) : '');
  const [codMethod, setCodMethod] = useState<CodMethod>(draft?.codMethod ?? 'cash');
  // Never kept in a draft: the code is typed again after an undo.
  const [code, setCode] = useState('');
  const [hasInk, setInk] = useState(false);
  const [error, setError] = useState('');
  const pad = useRef<SignatureHandle | null>(null);
  const { busy, run, unlock } = useConfirmOnce();
  const door = p?.door;
  const req = door?.requirements ?? NO_REQUIREMENTS;
  // The scan at the door: the screen's scanner input (wedge scanner or typed into the scan box).
  useScanner({ onScan: (c) => setScanned(c.trim()), enabled: !!p && req.scan });

  if (!loaded) return <Loading />;
  if (!p) return <Empty title="This parcel is not on your phone" />;
  if (!canDeliver(p, max)) return <Empty title={`Parcel ${p.hawb} cannot be delivered now`}>It is {p.status.replace(/_/g, ' ')}.</Empty>;

  // Leaving it is offered only as the recipient allowed (their choice, synced with the parcel).
  const outcomes = DOOR_OUTCOMES.filter((o) => o === 'handed' || door?.choice?.kind === o);

  const confirm = () =>
    run(async () => {
      try {
        const signature = outcome === 'safe_place' ? null : ((await pad.current?.toBlob()) ?? null);
        const typed = code.trim();
        if (req.code && outcome === 'handed' && typed && !door?.code) {
          setError("This parcel's code has not reached this phone yet: sync, then try again.");
          return false;
        }
        // The same rule the server applies (shared/door.ts), here with no signal: the code against its salted hash.
        const proof: DoorProof = {
          outcome,
          photos: photos.length,
          signature: !!signature,
          recipient_name: recipient,
          door_scan: scanned || null,
          age: { dob: dob || null, id_type: (idType || null) as IdType | null },
          ...(req.code && typed ? { code_ok: door?.code ? await codeMatches(typed, door.code) : false } : {}),
        };
        const gaps = proofMissing(req, proof, {
          barcodes: [p.hawb],
          today: localDay(Date.now(), door?.time_zone ?? 'Australia/Sydney'),
          choice: door?.choice ?? null,
        });
        if (gaps.length) {
          setError(gaps.map((g) => g.message).join('. '));
          return false;
        }
        if (!photos.length && !signature && !note.trim()) {
          setError('Add a photo, a signature, or a note saying where you left the parcel.');
          return false;
        }
        // Cash on delivery: the same rule the server applies (shared/cod.ts), with no signal too.
        let collection: Collection | undefined;
        if (p.cod) {
          const cents = parseMinor(codAmount, p.cod.currency);
          if (cents == null) {
            setError(`Type the amount collected, e.g. ${formatMinor(minimumToCollect(p.cod), p.cod.currency)}`);
            return false;
          }
          collection = { amount_cents: cents, method: codMethod };
          const check = checkCollection(p.cod, collection);
          if (!check.ok) {
            setError(collectionProblem(check.reason, p.cod, cents));
            return false;
          }
        }
        const place = await position(3000);
        const fields: DoorFieldsIn = {
          ...(outcome !== 'handed' ? { outcome } : {}),
          ...(scanned ? { door_scan: scanned } : {}),
          ...(req.min_age != null && outcome === 'handed'
            ? { age: { ...(dob ? { dob } : {}), ...(idType ? { id_type: idType } : {}) } }
            : {}),
          ...(req.code && typed ? { code: typed } : {}),
        };
        const e = engine();
        const action = e.actions.deliver(p.id, {
          photos: photos.map((b) => ({ bytes: b, mime: 'image/jpeg' })),
          signature: signature ? { bytes: signature, mime: 'image/png' } : undefined,
          recipient_name: recipient.trim() || undefined,
          note: note.trim() || undefined,
          parcel: p,
          door: fields,
          ...(collection ? { collection } : {}),
          ...place,
        });
        const saved: Draft = { photos, signature, recipient, note, outcome, scanned, dob, idType, codAmount, codMethod };
        await hold(`Delivered ${p.hawb}`, action, p.id, () => {
          drafts.set(p.id, saved);
          unlock();
          navigate(`/driver/deliver/${p.id}`);
        });
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
      <p class="muted">
        {p.customer_name ?? ''} · {addressOf(p)}
      </p>
      <CodDue cod={p.cod} />
      <DoorNeeds door={door} />
      {outcomes.length > 1 && (
        <div class="door-outcomes" role="radiogroup" aria-label="How it was delivered">
          {outcomes.map((o) => (
            <label key={o} class="check">
              <input
                type="radio"
                name="outcome"
                value={o}
                checked={outcome === o}
                onChange={() => setOutcome(o)}
                data-testid={`outcome-${o}`}
              />{' '}
              {OUTCOME_LABELS[o]}
            </label>
          ))}
        </div>
      )}
      {req.scan && (
        <TextField
          label="Scan the parcel's barcode"
          value={scanned}
          onValue={setScanned}
          data-scan-input=""
          data-testid="door-scan"
          autoComplete="off"
          hint={
            scanned
              ? scanned.toLowerCase() === p.hawb.toLowerCase()
                ? 'Scanned: this parcel'
                : "Not this parcel's barcode"
              : 'Scan the label with the scanner'
          }
        />
      )}
      <h2>Photos</h2>
      <PhotoPicker photos={photos} onChange={setPhotos} max={MAX_PHOTOS} />
      {outcome !== 'safe_place' && (
        <>
          <h2>Signature</h2>
          <SignaturePad handle={pad} onInk={setInk} initial={draft?.signature ?? null} />
        </>
      )}
      <TextField
        label={outcome === 'neighbour' ? "Neighbour's name" : 'Received by'}
        value={recipient}
        onValue={setRecipient}
        autoComplete="off"
        placeholder="Name of the person"
      />
      {req.min_age != null && outcome === 'handed' && (
        <fieldset class="door-age">
          <legend>Check ID: {req.min_age}+ only</legend>
          <TextField label="Date of birth (from the ID)" type="date" value={dob} onValue={setDob} data-testid="door-dob" />
          <SelectField
            label="ID seen"
            value={idType}
            onValue={setIdType}
            placeholder="Choose"
            options={ID_TYPES.map((t) => ({ value: t, label: ID_TYPE_LABELS[t] }))}
          />
        </fieldset>
      )}
      {req.code && outcome === 'handed' && (
        <TextField
          label="Recipient's one-time code"
          value={code}
          onValue={setCode}
          inputMode="numeric"
          maxLength={6}
          autoComplete="off"
          data-testid="door-code"
        />
      )}
      {p.cod && (
        <fieldset class="cod-collect" data-testid="cod-collect">
          <legend>Payment collected</legend>
          <TextField
            label={`Amount collected (${p.cod.currency})`}
            value={codAmount}
            onValue={setCodAmount}
            inputMode="decimal"
            autoComplete="off"
            data-testid="cod-collected"
          />
          <div role="radiogroup" aria-label="How it was paid" class="row">
            {COD_METHODS.map((m) => (
              <label key={m} class="check">
                <input
                  type="radio"
                  name="cod-method"
                  value={m}
                  checked={codMethod === m}
                  onChange={() => setCodMethod(m)}
                  data-testid={`cod-${m}`}
                />{' '}
                {METHOD_LABELS[m]}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <TextField label="Note" value={note} onValue={setNote} placeholder="e.g. left with the neighbour at no. 12" />
      {error && (
        <div class="form-error" role="alert">
          {error}
        </div>
      )}
      <Button variant="primary" class="xl" busy={busy} onClick={() => void confirm()} data-testid="confirm-delivery">
        Confirm delivery{hasInk && outcome !== 'safe_place' ? ' with signature' : ''}
      </Button>
      <p class="muted small">Time and (if allowed) position are recorded. You have 5 seconds to undo.</p>
    </div>
  );
}
