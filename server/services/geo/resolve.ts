import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { addressBook, geocodeCache } from '../../db/schema/index';
import { badRequest } from '../../errors';
import {
  addressKey,
  atLeast,
  containsWords,
  isPoBox,
  normaliseAddress,
  validCoordinates,
  type LocationSource,
  type Precision,
  type ReviewReason,
} from '../../../shared/geo/address';
import { haversineDistance } from '../../../shared/routing/haversine';
import { masterData, type SuburbRow } from './masterData';

/** The address fields of a parcel, as the package table names them. */
export interface LocationInput {
  customer_address?: string | null;
  postcode?: number | null;
  postcode_name?: string | null;
  suburb_id?: number | null;
  zone_id?: number | null;
  state_id?: number | null;
  country_id?: number | null;
  latitude?: number | null;
  longitude?: number | null;
}

export interface Resolution {
  latitude: number | null;
  longitude: number | null;
  suburb_id: number | null;
  zone_id: number | null;
  state_id: number | null;
  country_id: number | null;
  precision: Precision;
  source: LocationSource;
  /** Address book key (normalised address + postcode); null without a street address. */
  address_key: string | null;
  /** The text the external geocoder is (or would be) asked; null when there is nothing to ask. */
  geocode_query: string | null;
  /** The background geocoder should try this address (configured, not yet asked, nothing better known). */
  pending: boolean;
  /** Placed or not, the office should look at it: a PO box, or a place name the postcode does not cover. */
  review: ReviewReason | null;
}

export interface ResolverOptions {
  /** GEOCODER_URL is configured: unresolved addresses are queued for it. */
  geocoder: boolean;
  /** Read the shared address book (default). Off: the place as master data and the geocoder give it (what a sender may be shown). */
  addressBook?: boolean;
}

/** The geocoder cache key of an address: one normalised line, so spelling variants share an answer. */
export function geocodeQuery(
  address: string | null | undefined,
  place: string | null | undefined,
  postcode: number | string | null | undefined,
): string | null {
  if (!normaliseAddress(address)) return null;
  return [address, place, postcode]
    .filter((p) => p != null && String(p).trim() !== '')
    .map((p) => String(p).trim())
    .join(', ');
}
export const geocodeCacheKey = (query: string) => normaliseAddress(query);

const centroid = (rows: SuburbRow[]) => {
  const placed = rows.filter((r) => r.latitude != null && r.longitude != null);
  if (!placed.length) return null;
  return {
    latitude: placed.reduce((a, r) => a + (r.latitude as number), 0) / placed.length,
    longitude: placed.reduce((a, r) => a + (r.longitude as number), 0) / placed.length,
  };
};

const bookEntry = (db: Db) =>
  db
    .select()
    .from(addressBook)
    .where(eq(addressBook.address_key, sql.placeholder('key')))
    .prepare();
const cacheEntry = (db: Db) =>
  db
    .select()
    .from(geocodeCache)
    .where(eq(geocodeCache.query, sql.placeholder('q')))
    .prepare();

/**
 * The one resolver of parcel locations (issue 16), used by every path a parcel comes in by.
 * Coordinates: 1. the caller's (validated), 2. the address book, 3. the external geocoder's cached
 * answer, 4. master data (street, suburb, postcode centroid). Suburb, zone and state come from the
 * same master data, so the zone (and the price read from it) is the same whichever path asks.
 * It awaits only the database: it runs inside the route's transaction; the geocoder itself is only ever called in
 * the background (geo/geocoder.ts), which later fills in what the cache then holds.
 */
export function createResolver(db: Db, opts: ResolverOptions) {
  const md = masterData(db);
  const book = prepared(db, 'geo.addressBook', bookEntry);
  const cache = prepared(db, 'geo.geocodeCache', cacheEntry);

  async function pickSuburb(
    input: LocationInput,
    candidates: SuburbRow[],
    normAddress: string,
    point: { latitude: number; longitude: number } | null,
    mismatch: { found: boolean },
  ): Promise<SuburbRow | null> {
    if (input.suburb_id != null) {
      const s = await md.suburb(input.suburb_id);
      if (!s) throw badRequest(`Suburb ${input.suburb_id} does not exist`, [{ path: 'suburb', message: 'unknown suburb' }]);
      // The suburb is part of the address, not a price lever: one the postcode does not cover is refused.
      if (s.deleted_at == null && candidates.length && !candidates.some((c) => c.id === s.id)) {
        throw badRequest(`Suburb ${s.name} is not in postcode ${String(input.postcode)}`, [
          { path: 'suburb', message: 'not in this postcode' },
        ]);
      }
      return s;
    }
    const name = normaliseAddress(input.postcode_name);
    const inState = (rows: SuburbRow[]) => (input.state_id != null ? rows.filter((r) => r.state_id === input.state_id) : rows);
    if (name) {
      const named = candidates.length
        ? candidates.filter((c) => normaliseAddress(c.name) === name)
        : inState(await md.suburbsNamed(input.postcode_name ?? ''));
      // The shipper named a place their postcode does not cover (master data knows the postcode, or
      // placed the name under another one): placed as well as can be, and flagged, never silently.
      if (input.postcode != null && (candidates.length ? !named.length : named.length > 0)) mismatch.found = true;
      if (named.length) return named[0];
    }
    if (normAddress && candidates.length > 1) {
      // "12 Campbell Pde, Bondi Beach 2026": the suburb named in the address line, longest name first.
      const inText = candidates.filter((c) => containsWords(normAddress, c.name)).sort((a, b) => b.name.length - a.name.length);
      if (inText.length) return inText[0];
    }
    if (candidates.length === 1) return candidates[0];
    if (point && candidates.length > 1) {
      // A known point and a postcode shared by several suburbs: the nearest of them.
      const placed = candidates.filter((c) => c.latitude != null && c.longitude != null);
      if (placed.length) {
        return placed.reduce((best, c) =>
          haversineDistance(point, c as { latitude: number; longitude: number }) <
          haversineDistance(point, best as { latitude: number; longitude: number })
            ? c
            : best,
        );
      }
    }
    return null;
  }

  return {
    async resolve(input: LocationInput): Promise<Resolution> {
      const hasLat = input.latitude != null;
      if (hasLat !== (input.longitude != null)) {
        throw badRequest('Send latitude and longitude together', [
          { path: hasLat ? 'longitude' : 'latitude', message: 'required with the other coordinate' },
        ]);
      }
      if (input.zone_id != null && !(await md.zoneLive(input.zone_id)))
        throw badRequest(`Zone ${input.zone_id} does not exist`, [{ path: 'zone', message: 'unknown zone' }]);
      const code = input.postcode != null ? String(input.postcode) : null;
      const candidates = code ? await md.suburbsOfPostcode(code) : [];
      const normAddress = normaliseAddress(input.customer_address);
      const key = addressKey(input.customer_address, input.postcode);

      // Points known before master data: the caller's, then the address book.
      let point: { latitude: number; longitude: number } | null = null;
      let precision: Precision = 'none';
      let source: LocationSource = 'none';
      if (validCoordinates(input.latitude, input.longitude)) {
        point = { latitude: input.latitude, longitude: input.longitude as number };
        precision = 'exact';
        source = 'caller';
      } else if (key && opts.addressBook !== false) {
        const known = await book.get({ key });
        if (known) {
          point = { latitude: known.latitude, longitude: known.longitude };
          precision = 'exact';
          source = known.source === 'office' ? 'office' : 'address_book';
        }
      }

      const mismatch = { found: false };
      const s = await pickSuburb(input, candidates, normAddress, point, mismatch);
      // The zone follows the address: master data's zone wins over one sent with it (a sender naming a
      // cheaper zone for a Bondi address changes nothing). A given zone only places an address master
      // data cannot; the office's per-parcel override is its own audited action (packages/zoneOverride.ts).
      const addressZone = s ? s.zone_id : (candidates.find((c) => c.zone_id != null)?.zone_id ?? null);
      const zoneId = addressZone ?? input.zone_id ?? null;
      const states = new Set(candidates.map((c) => c.state_id));
      const stateId = input.state_id ?? s?.state_id ?? (states.size === 1 ? candidates[0].state_id : null);
      const countryId = input.country_id ?? (stateId != null ? await md.countryOfState(stateId) : null);
      const query = geocodeQuery(input.customer_address, input.postcode_name ?? s?.name, input.postcode);

      let pending = false;
      if (!point) {
        // Master data: a street of the suburb named in the address, the suburb, the postcode's centroid.
        let master: { point: { latitude: number; longitude: number }; precision: Precision } | null = null;
        const st =
          s && normAddress
            ? (await md.streetsOf(s.id)).filter((r) => containsWords(normAddress, r.name)).sort((a, b) => b.name.length - a.name.length)[0]
            : undefined;
        if (st) master = { point: { latitude: st.latitude, longitude: st.longitude }, precision: 'street' };
        else if (s && s.latitude != null && s.longitude != null)
          master = { point: { latitude: s.latitude, longitude: s.longitude }, precision: 'suburb' };
        else if (!s) {
          const c = centroid(candidates);
          if (c) master = { point: c, precision: 'postcode' };
        }
        const cached = query ? await cache.get({ q: geocodeCacheKey(query) }) : undefined;
        if (
          cached?.found &&
          cached.latitude != null &&
          cached.longitude != null &&
          (!master || atLeast(cached.precision as Precision, master.precision))
        ) {
          point = { latitude: cached.latitude, longitude: cached.longitude };
          precision = cached.precision as Precision;
          source = 'geocoder';
        } else if (master) {
          point = master.point;
          precision = master.precision;
          source = master.precision as LocationSource;
        }
        pending = opts.geocoder && query != null && cached === undefined;
      }
      return {
        latitude: point?.latitude ?? null,
        longitude: point?.longitude ?? null,
        suburb_id: s?.id ?? null,
        zone_id: zoneId,
        state_id: stateId,
        country_id: countryId,
        precision,
        source,
        address_key: key,
        geocode_query: query,
        pending,
        review: isPoBox(input.customer_address) ? 'po_box' : mismatch.found ? 'postcode_mismatch' : null,
      };
    },
  };
}
export type Resolver = ReturnType<typeof createResolver>;

/** The zone a parcel sent to this address would get (quotes): the resolver without the geocoder queue. */
export async function zoneOfAddress(db: Db, input: LocationInput): Promise<number | null> {
  if (input.suburb_id == null && input.postcode == null && !input.postcode_name) return input.zone_id ?? null;
  return (await createResolver(db, { geocoder: false }).resolve(input)).zone_id;
}
