/**
 * What a delivery needs at the door (issue 34), declared once: the proof a company requires by
 * default and a parcel may raise, the recipient's choice (leave it somewhere, or collect it), and the
 * one rule, `proofMissing()`, that the phone applies offline and the server applies before it writes.
 * Free of zod like shared/driverActions.ts (the driver's day chunk must not carry it); the body
 * schemas are in shared/schemas/door.ts.
 */

export const ID_TYPES = ['driver_licence', 'passport', 'proof_of_age_card', 'other_photo_id'] as const;
export type IdType = (typeof ID_TYPES)[number];
export const ID_TYPE_LABELS: Record<IdType, string> = {
  driver_licence: 'Driver licence',
  passport: 'Passport',
  proof_of_age_card: 'Proof of age card',
  other_photo_id: 'Other photo ID',
};

export const MAX_DOOR_PHOTOS = 5;

/** What a delivery must carry. Every field only ever raises: a parcel cannot lower its company's default. */
export interface ProofRequirements {
  signature: boolean;
  /** How many photos, 0 to MAX_DOOR_PHOTOS. */
  photos: number;
  recipient_name: boolean;
  /** The parcel's own barcode scanned at the door. */
  scan: boolean;
  /** Age check: the recipient's date of birth or an ID type seen; null = none. */
  min_age: number | null;
  /** A one-time code sent to the recipient with the "out for delivery" message, typed by the driver. */
  code: boolean;
}

export const NO_REQUIREMENTS: ProofRequirements = {
  signature: false,
  photos: 0,
  recipient_name: false,
  scan: false,
  min_age: null,
  code: false,
};

/** The stricter of two sets, field by field (company default raised by the parcel). */
export function raiseRequirements(base: ProofRequirements, extra: Partial<ProofRequirements> | null | undefined): ProofRequirements {
  if (!extra) return { ...base };
  const ages = [base.min_age, extra.min_age ?? null].filter((a): a is number => a != null);
  return {
    signature: base.signature || !!extra.signature,
    photos: Math.min(MAX_DOOR_PHOTOS, Math.max(base.photos, extra.photos ?? 0)),
    recipient_name: base.recipient_name || !!extra.recipient_name,
    scan: base.scan || !!extra.scan,
    min_age: ages.length ? Math.max(...ages) : null,
    code: base.code || !!extra.code,
  };
}

export const hasRequirements = (r: ProofRequirements): boolean =>
  r.signature || r.photos > 0 || r.recipient_name || r.scan || r.min_age != null || r.code;

/** Short words for a stop card, a label and the tracking page ("Signature · 2 photos · 18+ · Code"). */
export function requirementWords(r: ProofRequirements): string[] {
  const out: string[] = [];
  if (r.signature) out.push('Signature');
  if (r.photos > 0) out.push(r.photos === 1 ? 'Photo' : `${r.photos} photos`);
  if (r.recipient_name) out.push("Recipient's name");
  if (r.scan) out.push('Scan at door');
  if (r.min_age != null) out.push(`Age ${r.min_age}+ (ID)`);
  if (r.code) out.push('One-time code');
  return out;
}

export const CHOICE_KINDS = ['safe_place', 'neighbour', 'collect_at_depot'] as const;
export type ChoiceKind = (typeof CHOICE_KINDS)[number];

/** What the recipient chose on the tracking page. `late`: made after the parcel was out for delivery. */
export interface RecipientChoice {
  kind: ChoiceKind;
  /** Where (safe place: "the back door") or a word for the driver. */
  note: string | null;
  /** The neighbour's name and address ("Sam, no. 12"). */
  neighbour: string | null;
  at: string;
  late: boolean;
}

export function choiceWords(c: RecipientChoice): string {
  const text =
    c.kind === 'safe_place'
      ? `Leave in a safe place${c.note ? `: ${c.note}` : ''}`
      : c.kind === 'neighbour'
        ? `Leave with neighbour ${c.neighbour ?? ''}${c.note ? ` (${c.note})` : ''}`.trim()
        : 'Recipient will collect from the depot: do not leave it';
  return c.late ? `${text} (chosen late, after it left the depot)` : text;
}

/** How the parcel was handed over. Leaving it needs the recipient's authority (their choice) and a photo. */
export const DOOR_OUTCOMES = ['handed', 'safe_place', 'neighbour'] as const;
export type DoorOutcome = (typeof DOOR_OUTCOMES)[number];

/** What the driver recorded at the door, as the rule reads it (counts, not files). */
export interface DoorProof {
  outcome?: DoorOutcome;
  photos: number;
  signature: boolean;
  recipient_name?: string | null;
  /** The barcode scanned at the door. */
  door_scan?: string | null;
  age?: { dob?: string | null; id_type?: IdType | null } | null;
  /** Whether a typed code matched (checked beforehand: the phone against its hash, the server against its copy); undefined = none typed. */
  code_ok?: boolean;
}

export interface DoorContext {
  /** The parcel's label(s): a scan at the door must read one of them. */
  barcodes: string[];
  /** The recipient's local date (YYYY-MM-DD) when the delivery happened: the age is counted on it. */
  today: string;
  choice: RecipientChoice | null;
}

export interface ProofGap {
  path: string;
  message: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whole years from `dob` to `today` (both YYYY-MM-DD): a birthday counts from its own day; 29 February from 1 March in other years. */
export function ageOn(dob: string, today: string): number | null {
  const b = DAY.exec(dob);
  const t = DAY.exec(today);
  if (!b || !t) return null;
  const [by, bm, bd] = [Number(b[1]), Number(b[2]), Number(b[3])];
  const [ty, tm, td] = [Number(t[1]), Number(t[2]), Number(t[3])];
  const real = new Date(Date.UTC(by, bm - 1, bd));
  if (real.getUTCFullYear() !== by || real.getUTCMonth() !== bm - 1 || real.getUTCDate() !== bd) return null;
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age -= 1;
  return age;
}

/**
 * What a delivery lacks, empty when it may be recorded. The phone shows these before it saves
 * (offline too) and the server refuses with them (422 validation_error, paths in `errors`).
 */
export function proofMissing(req: ProofRequirements, proof: DoorProof, ctx: DoorContext): ProofGap[] {
  const gaps: ProofGap[] = [];
  const gap = (path: string, message: string) => gaps.push({ path, message });
  const outcome = proof.outcome ?? 'handed';
  const left = outcome !== 'handed';
  if (left) {
    if (ctx.choice?.kind !== outcome) {
      gap(
        'outcome',
        outcome === 'safe_place'
          ? 'The recipient has not allowed leaving it in a safe place'
          : 'The recipient has not named a neighbour to leave it with',
      );
    }
    // An age or code check needs the recipient in person.
    if (req.min_age != null || req.code) gap('outcome', 'This parcel needs an ID or code check: it must be handed to the recipient');
    if (proof.photos < Math.max(1, req.photos))
      gap('photos', `Take ${Math.max(1, req.photos) === 1 ? 'a photo' : `${Math.max(1, req.photos)} photos`} of where you left it`);
  } else if (proof.photos < req.photos) {
    gap('photos', req.photos === 1 ? 'A photo is required' : `${req.photos} photos are required`);
  }
  // Nobody signs for a parcel left in a safe place; a neighbour signs and gives their name.
  if (outcome !== 'safe_place') {
    if (req.signature && !proof.signature) gap('signature', 'A signature is required');
    if ((req.recipient_name || outcome === 'neighbour') && !proof.recipient_name?.trim())
      gap('recipient_name', outcome === 'neighbour' ? "The neighbour's name is required" : "The recipient's name is required");
  }
  if (req.scan) {
    const scanned = proof.door_scan?.trim();
    if (!scanned) gap('door_scan', "Scan the parcel's barcode at the door");
    else if (!ctx.barcodes.some((b) => b.toLowerCase() === scanned.toLowerCase()))
      gap('door_scan', `The barcode scanned (${scanned}) is not this parcel's`);
  }
  if (req.min_age != null && !left) {
    const dob = proof.age?.dob?.trim();
    if (dob) {
      const age = ageOn(dob, ctx.today);
      if (age == null || dob > ctx.today) gap('age.dob', 'Not a valid date of birth');
      else if (age < req.min_age) gap('age.dob', `The recipient is ${age}: under ${req.min_age}, do not hand it over`);
    } else if (!proof.age?.id_type) {
      gap('age', `Check ID: the recipient must be ${req.min_age} or older (date of birth or the ID seen)`);
    }
  }
  if (req.code && !left) {
    if (proof.code_ok === undefined) gap('code', 'Ask the recipient for their one-time code');
    else if (!proof.code_ok) gap('code', 'The one-time code is wrong');
  }
  return gaps;
}

/** The one-time code's shape: 6 digits. */
export const CODE_PATTERN = /^\d{6}$/;

/**
 * The phone's copy of the code: PBKDF2-SHA256 over the code with a per-parcel random salt (WebCrypto,
 * in the browser and in Node). A 6-digit code has only a million values, so no hash stops a
 * determined search; the iterations make each guess cost ~0.1 s on a phone and a CPU search take
 * hours instead of a second, and the server, which keeps the code itself, has the last word.
 */
export const CODE_ITERATIONS = 100_000;

export interface CodeHash {
  hash: string;
  salt: string;
  iterations: number;
}

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

export async function hashCode(code: string, salt: string, iterations = CODE_ITERATIONS): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(code), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: enc.encode(salt), iterations }, key, 256);
  return hex(bits);
}

/** Whether a typed code matches the phone's hash. */
export async function codeMatches(typed: string, h: CodeHash): Promise<boolean> {
  if (!CODE_PATTERN.test(typed.trim())) return false;
  const got = await hashCode(typed.trim(), h.salt, h.iterations);
  let diff = got.length ^ h.hash.length;
  for (let i = 0; i < Math.min(got.length, h.hash.length); i++) diff |= got.charCodeAt(i) ^ h.hash.charCodeAt(i);
  return diff === 0;
}

/** What the phone's copy of a parcel carries for the door (the sync feed's `door` member). */
export interface DoorInfo {
  requirements: ProofRequirements;
  code: CodeHash | null;
  choice: RecipientChoice | null;
  /** The recipient's zone (the parcel's depot's): "today" for the age check. */
  time_zone: string;
}

/** What was checked at the door, kept with the proof and shown on summaries, labels and the tracking page. */
export interface DoorChecked {
  outcome: DoorOutcome;
  requirements: ProofRequirements;
  signature: boolean;
  photos: number;
  recipient_name: boolean;
  door_scan: boolean;
  /** The age as counted on the day (never the date of birth itself), or the ID type seen. */
  age: { years: number | null; id_type: IdType | null; min: number } | null;
  code: boolean;
  choice: RecipientChoice | null;
}

export function checkedWords(c: DoorChecked): string[] {
  const out: string[] = [];
  if (c.outcome === 'safe_place') out.push(`Left in a safe place${c.choice?.note ? ` (${c.choice.note})` : ''}, as the recipient allowed`);
  if (c.outcome === 'neighbour')
    out.push(`Left with neighbour ${c.choice?.neighbour ?? ''}, as the recipient allowed`.replace(/\s+,/, ','));
  if (c.signature) out.push('Signed');
  if (c.photos) out.push(c.photos === 1 ? 'Photo taken' : `${c.photos} photos taken`);
  if (c.recipient_name) out.push('Name recorded');
  if (c.door_scan) out.push('Barcode scanned at the door');
  if (c.age)
    out.push(
      c.age.years != null
        ? `Age checked: ${c.age.min}+ (date of birth seen)`
        : `Age checked: ${c.age.min}+ (${c.age.id_type ? ID_TYPE_LABELS[c.age.id_type] : 'ID'} seen)`,
    );
  if (c.code) out.push('One-time code given');
  return out;
}
