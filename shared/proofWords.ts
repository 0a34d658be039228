import { MAX_DOOR_PHOTOS } from './door';

/** What a parcel asks of the door, as an upload cell writes it (issue 34): the ParcelRequirements fields. */
export interface ParcelRequirementWords {
  signature?: boolean;
  photos?: number;
  recipient_name?: boolean;
  scan?: boolean;
  min_age?: number | null;
  code?: boolean;
}

/** The words an upload's `proof_requirements` cell takes, for the upload help and the template. */
export const PROOF_WORDS_HELP = 'signature, photo (or photos:2), name, scan, age:18, code; "none" for nothing beyond the company default';

/**
 * An upload cell such as "signature + age:18 + code" or "photos:2; scan" as parcel requirements.
 * Separators: + ; | , or spaces. Unknown words are refused with their name, never dropped.
 */
export function parseProofWords(cell: string): { ok: true; value: ParcelRequirementWords } | { ok: false; message: string } {
  const words = cell
    .toLowerCase()
    .split(/[+;|,\s]+/)
    .map((w) => w.trim())
    .filter(Boolean);
  const out: ParcelRequirementWords = {};
  for (const w of words) {
    if (w === 'none') continue;
    if (w === 'signature' || w === 'sign') out.signature = true;
    else if (w === 'name' || w === 'recipient_name') out.recipient_name = true;
    else if (w === 'scan') out.scan = true;
    else if (w === 'code' || w === 'otp' || w === 'pin') out.code = true;
    else {
      const m = /^(photos?|age)(?::|=)?(\d+)?$/.exec(w);
      if (!m) return { ok: false, message: `"${w}" is not a proof requirement (${PROOF_WORDS_HELP})` };
      const n = m[2] == null ? null : Number(m[2]);
      if (m[1] === 'age') {
        if (n == null || n < 1 || n > 99) return { ok: false, message: 'age needs the minimum age, e.g. age:18' };
        out.min_age = n;
      } else {
        const photos = n ?? 1;
        if (photos > MAX_DOOR_PHOTOS) return { ok: false, message: `at most ${MAX_DOOR_PHOTOS} photos` };
        out.photos = photos;
      }
    }
  }
  return { ok: true, value: out };
}
