import { useEffect, useState } from 'preact/hooks';
import { api } from '../../../api/client';
import { TextField } from '../../../ui/Field';
import { placeLabel, suggestionQuery, type PlaceOption } from './places';

/**
 * The suburb and postcode of a parcel, picked from master data's suburbs (issue 36: "Correct
 * details" had no suburb field). Suggestions follow what is typed, and start from the place the
 * shipper wrote, so the office sees what they meant beside what master data knows.
 */
export function PlaceField({
  value,
  onValue,
  onOptions,
  shipperWrote,
  current,
  postcode,
  error,
}: {
  value: string;
  onValue: (v: string) => void;
  onOptions: (o: PlaceOption[]) => void;
  shipperWrote: string | null;
  current: string | null;
  postcode: string;
  error?: string | undefined;
}) {
  const [options, setOptions] = useState<PlaceOption[]>([]);
  const q = suggestionQuery(value, shipperWrote, postcode);
  useEffect(() => {
    if (q == null) return undefined;
    let live = true;
    // Typing waits a moment before asking; the first suggestions come at once.
    const timer = setTimeout(
      () => {
        api.get<{ results: PlaceOption[] }>(`suburb/?search=${encodeURIComponent(q)}&page_size=20`).then(
          (r) => {
            if (!live) return;
            setOptions(r.results);
            onOptions(r.results);
          },
          () => undefined,
        );
      },
      value.trim() ? 200 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q]);
  const hint = [current ? `Now: ${current}` : 'Not placed in a suburb yet', shipperWrote ? `the shipper wrote "${shipperWrote}"` : null]
    .filter(Boolean)
    .join(' · ');
  return (
    <>
      <TextField
        name="place"
        label="Suburb and postcode"
        value={value}
        onValue={onValue}
        error={error}
        hint={`${hint}. Type a suburb or postcode and choose it from the list.`}
        list="place-suggestions"
        autoComplete="off"
        wide
        data-testid="place-field"
      />
      <datalist id="place-suggestions" data-testid="place-suggestions">
        {options.map((o) => (
          <option key={o.id} value={placeLabel(o)} />
        ))}
      </datalist>
    </>
  );
}
