import { containsWords, normaliseAddress } from './geo/address';

/** The parts of a parcel that make up its delivery address. */
export interface AddressParts {
  customer_address: string | null;
  suburb_name: string | null;
  /** The place name the parcel was sent with (an upload's suburb column); used when master data has no suburb. */
  postcode_name: string | null;
  postcode: number | string | null;
  state_name: string | null;
}

/** "1 Main St Newtown NSW 2042" names its suburb at the end, before any state and postcode. */
function endsWithPlace(address: string, place: string, state: string | null, postcode: string | null): boolean {
  const words = normaliseAddress(address).split(' ');
  const tail = new Set(
    [normaliseAddress(state), normaliseAddress(postcode), 'nsw', 'vic', 'qld', 'wa', 'sa', 'tas', 'act', 'nt'].filter(Boolean),
  );
  while (words.length > 0 && (tail.has(words[words.length - 1]!) || /^\d{4}$/.test(words[words.length - 1]!))) words.pop();
  return ` ${words.join(' ')}`.endsWith(` ${normaliseAddress(place)}`);
}

/**
 * One line for people to read, Australian style: "1 Main St, Newtown NSW 2042". The suburb, state and
 * postcode are added only where the typed address does not already say them: addresses often carry
 * the suburb ("1 Main St, Newtown") and master data carries it again (suburb and place name), which
 * printed "1 Main St, Newtown, Newtown NSW 2042". A street named like the suburb ("12 Newtown Rd")
 * does not count as saying it.
 */
export function formatAddress(p: AddressParts): string {
  const street = (p.customer_address ?? '').trim().replace(/\s*,\s*$/, '');
  const place = (p.suburb_name ?? p.postcode_name ?? '').trim();
  const state = (p.state_name ?? '').trim();
  const postcode = p.postcode == null ? '' : String(p.postcode).trim();
  const whole = normaliseAddress(street);
  const comma = street.indexOf(',');
  const afterStreet = comma >= 0 ? normaliseAddress(street.slice(comma + 1)) : '';
  const atEnd = place !== '' && endsWithPlace(street, place, state, postcode);
  const placeSaid = atEnd || (place !== '' && containsWords(afterStreet, place));
  const tail = [
    placeSaid ? '' : place,
    state && !containsWords(whole, state) ? state : '',
    postcode && !containsWords(whole, postcode) ? postcode : '',
  ]
    .filter(Boolean)
    .join(' ');
  // "…, Newtown" + "NSW 2042" continue the suburb on the same line: "…, Newtown NSW 2042".
  return [street, tail].filter(Boolean).join(atEnd ? ' ' : ', ');
}
