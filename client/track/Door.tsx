import { useState } from 'preact/hooks';
import { checkedWords, choiceWords, requirementWords, type ChoiceKind } from '../../shared/door';
import { trackApi, type RecipientView } from './api';
import { useAction } from './useAction';

type DoorView = NonNullable<RecipientView['door']>;

/**
 * At the door (issue 34): what the driver will check, the recipient's authority to leave the parcel
 * (a safe place, a named neighbour) or to collect it from the depot, and after delivery what was checked.
 */
export function Door({ token, door, onDone }: { token: string; door: DoorView; onDone: () => Promise<void> }) {
  const needs = requirementWords(door.requirements);
  const handOnly = door.requirements.min_age != null || door.requirements.code;
  return (
    <>
      {needs.length > 0 && !door.checked && (
        <section class="trk-card" aria-labelledby="trk-needs">
          <h2 id="trk-needs">At the door</h2>
          <p data-testid="door-needs">The driver will ask for: {needs.join(' · ')}.</p>
          {door.requirements.code && (
            <p>Your one-time code is in your "on its way" message. Give it to the driver only when they hand you the parcel.</p>
          )}
          {door.requirements.min_age != null && (
            <p>Have photo ID ready: the parcel is handed only to someone {door.requirements.min_age} or older.</p>
          )}
        </section>
      )}
      {door.checked && (
        <section class="trk-card" aria-labelledby="trk-checked">
          <h2 id="trk-checked">Checked at delivery</h2>
          <ul data-testid="door-checked">
            {checkedWords(door.checked).map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </section>
      )}
      {door.can_choose && <Choice token={token} door={door} handOnly={handOnly} onDone={onDone} />}
    </>
  );
}

function Choice({ token, door, handOnly, onDone }: { token: string; door: DoorView; handOnly: boolean; onDone: () => Promise<void> }) {
  const c = door.choice;
  const [kind, setKind] = useState<ChoiceKind | 'none'>(c?.kind ?? 'none');
  const [note, setNote] = useState(c?.note ?? '');
  const [neighbour, setNeighbour] = useState(c?.neighbour ?? '');
  const { busy, message, error, run } = useAction();
  const body =
    kind === 'safe_place'
      ? { kind, note: note.trim() }
      : kind === 'neighbour'
        ? { kind, neighbour: neighbour.trim(), note: note.trim() || undefined }
        : { kind };
  const options: { value: ChoiceKind | 'none'; label: string }[] = [
    { value: 'none', label: 'Hand it to me' },
    ...(handOnly
      ? []
      : [
          { value: 'safe_place' as const, label: 'Leave it in a safe place' },
          { value: 'neighbour' as const, label: 'Leave it with a neighbour' },
        ]),
    { value: 'collect_at_depot', label: 'I will collect it from the depot' },
  ];
  return (
    <section class="trk-card" aria-labelledby="trk-choice">
      <h2 id="trk-choice">If you are not in</h2>
      {c && (
        <p class={c.late ? 'trk-note' : 'trk-ok'} data-testid="door-choice">
          {choiceWords(c)}
          {c.late ? '. Your parcel had already left: the driver sees this when their phone next connects.' : ''}
        </p>
      )}
      {handOnly && <p class="trk-muted">This parcel needs your ID or code, so it cannot be left.</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => trackApi.choice(token, body), onDone);
        }}
      >
        {options.map((o) => (
          <label key={o.value} class="trk-radio">
            <input type="radio" name="door-choice" value={o.value} checked={kind === o.value} onChange={() => setKind(o.value)} /> {o.label}
          </label>
        ))}
        {kind === 'neighbour' && (
          <>
            <label for="trk-neighbour">Neighbour's name and address</label>
            <input
              id="trk-neighbour"
              name="neighbour"
              maxLength={200}
              value={neighbour}
              onInput={(e) => setNeighbour((e.target as HTMLInputElement).value)}
              placeholder="e.g. Sam at no. 12"
            />
          </>
        )}
        {(kind === 'safe_place' || kind === 'neighbour') && (
          <>
            <label for="trk-place">{kind === 'safe_place' ? 'Where exactly?' : 'A note for the driver (optional)'}</label>
            <input
              id="trk-place"
              name="place"
              maxLength={300}
              value={note}
              onInput={(e) => setNote((e.target as HTMLInputElement).value)}
              placeholder="e.g. at the back door"
            />
          </>
        )}
        <button class="trk-btn" type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save my choice'}
        </button>
        {message && (
          <p class="trk-ok" role="status">
            {message}
          </p>
        )}
        {error && (
          <p class="trk-err" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
