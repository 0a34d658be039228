import { and, eq, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { packageLocation, pincode, pkg, suburb } from '../../db/schema/index';
import { FINAL_STATUSES } from '../../../shared/lifecycle';
import { repriceForZone } from '../money/charges';
import { updatePackage } from '../packages/lifecycle';
import { applyResolution, locationInput, recordLocation, resolverFor, type PackageInsert } from './location';

/** What master data has just gained: postcodes (suburbs' own or pincode rows), suburb names, suburbs (a zone given). */
interface Gained {
  postcodes?: readonly string[];
  names?: readonly string[];
  suburbs?: readonly number[];
}

/** Points that came from a person or a better source than master data stay where they are. */
const KEPT_SOURCES = ['caller', 'office', 'address_book', 'geocoder'];

/**
 * Parcels waiting for a place (open, with no suburb or no zone) are placed again when master data
 * gains what they were waiting for (issue 36: adding the missing suburb left them unplaced and
 * unpriced). Runs in the unit of work of the master-data write, so the new suburb or postcode and the
 * parcels it places, zones and prices commit together or not at all. Each placed parcel gets an event
 * `placed` in its history and is priced for its new zone (charged once, or listed unpriced); a parcel
 * the new data still cannot place is left as it was. Answers how many were placed.
 */
export async function placeWaiting(deps: Deps, actorId: number | null, gained: Gained): Promise<number> {
  const codes = [...new Set((gained.postcodes ?? []).map((c) => Number(String(c).trim())).filter((n) => Number.isSafeInteger(n)))];
  const names = [...new Set((gained.names ?? []).map((n) => n.trim().toLowerCase()).filter(Boolean))];
  const suburbs = [...new Set(gained.suburbs ?? [])];
  const matches: SQL[] = [];
  if (codes.length) matches.push(inArray(pkg.postcode, codes));
  if (names.length) matches.push(inArray(sql`lower(trim(${pkg.postcode_name}))`, names));
  if (suburbs.length) matches.push(inArray(pkg.suburb_id, suburbs));
  if (!matches.length) return 0;
  const waiting = await deps.db
    .select({ p: pkg, source: packageLocation.source, job: packageLocation.job_id })
    .from(pkg)
    .leftJoin(packageLocation, eq(packageLocation.package_id, pkg.id))
    .where(
      and(
        isNull(pkg.deleted_at),
        notInArray(pkg.status, [...FINAL_STATUSES]),
        or(isNull(pkg.suburb_id), isNull(pkg.zone_id)),
        or(...matches),
      ),
    )
    .orderBy(pkg.id)
    .all();
  if (!waiting.length) return 0;
  const resolver = resolverFor(deps);
  const now = deps.clock.now();
  let placed = 0;
  for (const { p: row, source, job } of waiting) {
    const input = locationInput(row);
    if (!KEPT_SOURCES.includes(source ?? '')) {
      input.latitude = null;
      input.longitude = null;
    }
    const r = await resolver.resolve(input);
    if (r.suburb_id === row.suburb_id && r.zone_id === row.zone_id) continue;
    const values: PackageInsert = {};
    applyResolution(values, r);
    const updated = await updatePackage(
      deps.db,
      now,
      row,
      values,
      'placed',
      { userId: actorId },
      { data: { suburb: r.suburb_id, zone: r.zone_id, precision: r.precision } },
    );
    await recordLocation(deps.db, row.id, r, now, job ?? null);
    // Its zone is new: priced as a quote for this address now would be (never refused for money).
    if (updated.zone_id !== row.zone_id) await repriceForZone(deps, updated, actorId);
    placed += 1;
  }
  return placed;
}

/** What the given suburbs bring: their names, their own postcodes and their pincode rows. */
export async function gainedBySuburbs(deps: Pick<Deps, 'db'>, ids: readonly number[]): Promise<Gained> {
  if (!ids.length) return {};
  const rows = await deps.db
    .select({ id: suburb.id, name: suburb.name, postcode: suburb.postcode })
    .from(suburb)
    .where(and(inArray(suburb.id, [...ids]), isNull(suburb.deleted_at)))
    .all();
  const codes = await deps.db
    .select({ code: pincode.code })
    .from(pincode)
    .where(and(inArray(pincode.suburb_id, [...ids]), isNull(pincode.deleted_at)))
    .all();
  return {
    names: rows.map((r) => r.name),
    postcodes: [...rows.map((r) => r.postcode), ...codes.map((c) => c.code)],
    suburbs: rows.map((r) => r.id),
  };
}

/** What the given pincode rows bring: their codes. */
export async function gainedByPincodes(deps: Pick<Deps, 'db'>, ids: readonly number[]): Promise<Gained> {
  if (!ids.length) return {};
  const rows = await deps.db
    .select({ code: pincode.code })
    .from(pincode)
    .where(and(inArray(pincode.id, [...ids]), isNull(pincode.deleted_at)))
    .all();
  return { postcodes: rows.map((r) => r.code) };
}
