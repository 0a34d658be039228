/**
 * Pure rules of parcel locations (issue 16): precision levels, address normalisation (the key the
 * address book and the geocoder cache share), and reading a Nominatim/Photon answer.
 */
import { haversineDistance, type LatLng } from '../routing/haversine';

/** Best first. `exact` = a point at the door (caller, address book, house-level geocode). */
export const PRECISIONS = ['exact', 'street', 'suburb', 'postcode', 'none'] as const;
export type Precision = (typeof PRECISIONS)[number];
export const LOCATION_SOURCES = ['caller', 'office', 'address_book', 'geocoder', 'street', 'suburb', 'postcode', 'none'] as const;
export type LocationSource = (typeof LOCATION_SOURCES)[number];

export const precisionRank = (p: Precision): number => PRECISIONS.indexOf(p);
/** True when `a` is at least as precise as `b`. */
export const atLeast = (a: Precision, b: Precision): boolean => precisionRank(a) <= precisionRank(b);
/** Parcels at this precision or worse are listed for review. */
export const REVIEW_FROM: Precision = 'suburb';
export const needsReview = (p: Precision): boolean => precisionRank(p) >= precisionRank(REVIEW_FROM);

const ABBREVIATIONS: Record<string, string> = {
  st: 'street',
  str: 'street',
  rd: 'road',
  ave: 'avenue',
  av: 'avenue',
  pde: 'parade',
  dr: 'drive',
  drv: 'drive',
  ln: 'lane',
  pl: 'place',
  cres: 'crescent',
  cr: 'crescent',
  ct: 'court',
  hwy: 'highway',
  tce: 'terrace',
  blvd: 'boulevard',
  cct: 'circuit',
  cl: 'close',
  esp: 'esplanade',
  gr: 'grove',
  sq: 'square',
  mt: 'mount',
  nth: 'north',
  sth: 'south',
};

/**
 * Why a placed address still needs the office's eyes (issue 36: these were accepted silently):
 * `po_box` - a post-office box, locked bag or the like, which no van can deliver to;
 * `postcode_mismatch` - the place the shipper wrote is not in the postcode they wrote.
 */
export const REVIEW_REASONS = ['po_box', 'postcode_mismatch'] as const;
export type ReviewReason = (typeof REVIEW_REASONS)[number];

// "PO Box 12", "P.O. Box", "GPO Box", "Post Office Box", "Locked Bag 5", "Private Bag", "Parcel Locker 3".
const PO_BOX = /\b(?:(?:g\.?\s*)?p\.?\s*o\.?\s*box|post\s*office\s*box|locked\s*bag|private\s*bag|parcel\s*locker|po\s*box)\b/i;

/** A stored review reason read back (null for none or a value this version does not know). */
export const reviewOf = (v: string | null | undefined): ReviewReason | null =>
  (REVIEW_REASONS as readonly string[]).includes(v ?? '') ? (v as ReviewReason) : null;

/** Whether an address line is a box or bag at a post office rather than a door. */
export function isPoBox(address: string | null | undefined): boolean {
  return !!address && PO_BOX.test(address.replace(/[.]/g, ' ').replace(/\s+/g, ' '));
}

/** The sentence the office reads for a review reason. */
export function reviewMessage(
  reason: ReviewReason,
  p: { postcode: number | string | null; postcode_name: string | null; suburb_name: string | null },
): string {
  if (reason === 'po_box') return 'A PO box or locked bag: a courier cannot deliver to it. Ask for a street address.';
  const wrote = [p.postcode_name, p.postcode].filter((v) => v != null && String(v).trim() !== '').join(' ');
  return p.suburb_name
    ? `The shipper wrote "${wrote}", but that place is not in that postcode; it was placed in ${p.suburb_name}. Check the suburb and postcode.`
    : `The shipper wrote "${wrote}", but that place is not in that postcode. Check the suburb and postcode.`;
}

/** Lower case, punctuation to spaces, common street-type abbreviations spelled out: "12 Campbell Pde." -> "12 campbell parade". */
export function normaliseAddress(text: string | null | undefined): string {
  if (!text) return '';
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map((w) => ABBREVIATIONS[w] ?? w)
    .join(' ');
}

/** The address book / cache key of a delivery address: the normalised street address and the postcode. Null without an address. */
export function addressKey(address: string | null | undefined, postcode: string | number | null | undefined): string | null {
  const a = normaliseAddress(address);
  if (!a) return null;
  return `${a}|${postcode == null ? '' : String(postcode).trim().toUpperCase()}`;
}

/** Whether `name` appears as whole words in an already normalised text. */
export function containsWords(normalisedText: string, name: string): boolean {
  const n = normaliseAddress(name);
  if (!n) return false;
  return ` ${normalisedText} `.includes(` ${n} `);
}

/** Caller coordinates are usable when both are finite, in range, and not the (0, 0) "null island" of an unset GPS. */
export function validCoordinates(lat: number | null | undefined, lng: number | null | undefined): lat is number {
  if (lat == null || lng == null || !Number.isFinite(lat) || !Number.isFinite(lng)) return false;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return false;
  return !(lat === 0 && lng === 0);
}

/** Sightings "agree" within this many metres. */
export const AGREEMENT_M = 50;
/** How many different drivers must agree before the shared address book learns (or moves) a position. */
export const MIN_AGREEING_DRIVERS = 3;

/** One delivery's recorded position, and the driver whose phone recorded it. */
export interface Sighting extends LatLng {
  driver: number;
}

/**
 * The position the shared address book takes from deliveries, or null to leave it as it is
 * (issue 30, section 5). Agreement no single driver or shipper controls:
 * - one vote per driver (their newest sighting), so one phone with a faked fix, however many
 *   deliveries it makes, is one vote;
 * - a position is learned only when at least `minDrivers` different drivers' votes lie within
 *   AGREEMENT_M of it (the mean of those votes);
 * - a learned position (`current`) moves only to a place more drivers agree on than agree with it.
 * Sightings of parcels whose sender placed the point never get here (server/services/geo/addressBook.ts).
 */
export function agreedPosition(
  sightings: Sighting[],
  current: LatLng | null = null,
  minDrivers = MIN_AGREEING_DRIVERS,
): (LatLng & { samples: number }) | null {
  const votes: Sighting[] = [];
  const seen = new Set<number>();
  for (const s of sightings)
    if (!seen.has(s.driver)) {
      seen.add(s.driver);
      votes.push(s);
    }
  const near = (p: LatLng) => votes.filter((v) => haversineDistance(v, p) <= AGREEMENT_M);
  let best: Sighting[] = [];
  for (const v of votes) {
    const cluster = near(v);
    if (cluster.length > best.length) best = cluster;
  }
  if (best.length < minDrivers) return null;
  const mean = {
    latitude: best.reduce((a, s) => a + s.latitude, 0) / best.length,
    longitude: best.reduce((a, s) => a + s.longitude, 0) / best.length,
  };
  if (current && haversineDistance(mean, current) > AGREEMENT_M && near(current).length >= best.length) return null;
  return { ...mean, samples: best.length };
}

/** One hit of a Nominatim (`format=jsonv2`) or Photon (GeoJSON) search answer. */
export interface GeocodeHit {
  latitude: number;
  longitude: number;
  precision: Precision;
  label: string;
}

/**
 * Nominatim's `category`/`type`/`addresstype` (or Photon's `osm_key`/`type`) to a precision. A house
 * is `category: place, type: house, addresstype: place`; a street `category: highway, addresstype: road`.
 */
export function precisionOfPlace(kind: { addresstype?: string; type?: string; class?: string; osm_key?: string }): Precision {
  const names = [kind.type, kind.addresstype].map((v) => (v ?? '').toLowerCase());
  const cls = (kind.class ?? kind.osm_key ?? '').toLowerCase();
  const any = (list: string[]) => names.some((n) => list.includes(n));
  if (any(['house', 'building', 'house_number', 'address']) || ['building', 'amenity', 'shop', 'office', 'craft'].includes(cls))
    return 'exact';
  if (cls === 'highway' || any(['road', 'street'])) return 'street';
  if (any(['postcode'])) return 'postcode';
  return 'suburb';
}

function num(v: unknown): number | null {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) ? n : null;
}

/**
 * The best hit of a geocoder answer, or null when it found nothing. Accepts Nominatim's array of
 * places (`lat`/`lon` as strings) and Photon's GeoJSON FeatureCollection; anything else throws.
 */
export function readGeocodeAnswer(body: unknown): GeocodeHit | null {
  if (Array.isArray(body)) {
    for (const p of body as Record<string, unknown>[]) {
      const lat = num(p?.lat);
      const lng = num(p?.lon);
      if (!validCoordinates(lat, lng)) continue;
      return {
        latitude: lat,
        longitude: lng as number,
        precision: precisionOfPlace({
          addresstype: p.addresstype as string | undefined,
          type: p.type as string | undefined,
          class: (p.class ?? p.category) as string | undefined,
        }),
        label: typeof p.display_name === 'string' ? p.display_name.slice(0, 300) : '',
      };
    }
    return null;
  }
  if (body && typeof body === 'object' && Array.isArray((body as { features?: unknown }).features)) {
    for (const f of (body as { features: Record<string, unknown>[] }).features) {
      const coords = (f?.geometry as { coordinates?: unknown[] } | undefined)?.coordinates;
      const props = (f?.properties ?? {}) as Record<string, unknown>;
      const lng = num(coords?.[0]);
      const lat = num(coords?.[1]);
      if (!validCoordinates(lat, lng)) continue;
      const kind = props.housenumber ? 'house' : (props.type as string | undefined);
      return {
        latitude: lat,
        longitude: lng as number,
        precision: precisionOfPlace({ type: kind, osm_key: props.osm_key as string | undefined }),
        label: [props.housenumber, props.street ?? props.name, props.city]
          .filter((x) => typeof x === 'string' || typeof x === 'number')
          .join(' ')
          .slice(0, 300),
      };
    }
    return null;
  }
  throw new Error('not a Nominatim or Photon search answer');
}
