/** A suburb as the office picks it in "Correct details": master data's own, with the postcode it is in. */
export interface PlaceOption {
  id: number;
  name: string;
  postcode: string;
  state_name: string | null;
}

/** How a suggestion reads (and what the field holds once one is picked): "Bondi Beach 2026, NSW". */
export function placeLabel(p: PlaceOption): string {
  return `${p.name} ${p.postcode}${p.state_name ? `, ${p.state_name}` : ''}`;
}

/** The suggestion the text names (picked from the list, or typed out in full), else null. */
export function matchPlace(text: string, options: readonly PlaceOption[]): PlaceOption | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!t) return null;
  return options.find((o) => placeLabel(o).toLowerCase() === t) ?? null;
}

/**
 * What master data is asked for suggestions: what is typed (a name or a postcode), else the place
 * the shipper wrote, else the parcel's postcode. Null when there is nothing worth asking.
 */
export function suggestionQuery(typed: string, shipperWrote: string | null, postcode: string): string | null {
  const q = typed.trim();
  if (q.length >= 2)
    return (
      q
        .replace(/,.*$/, '')
        .replace(/\s+\d+$/, '')
        .trim() || q
    );
  if (shipperWrote?.trim()) return shipperWrote.trim();
  if (postcode.trim()) return postcode.trim();
  return null;
}
