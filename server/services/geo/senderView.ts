import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { packageHistoryRow, packageLocation } from '../../db/schema/index';
import { RawJson } from '../../http/rawJson';
import type { Package } from '../../../shared/schemas/package';
import type { SessionUser } from '../auth/session';
import { createResolver, type Resolver } from './resolve';

/**
 * The Package answer as a sender (a company login) may see it (security issue 30, section 5).
 *
 * A parcel's point may come from the shared address book (what deliveries for every company taught
 * it, or an office pin for the address): that is the point drivers are sent to and the office works
 * with, and it is what the stored answer (package_answer) carries. A sender must learn nothing from
 * the book about other companies' deliveries, so every answer a company login reads is passed through
 * here: a point the book gave the parcel is replaced by the one master data (and the geocoder's
 * cache) gives its address, as if the book had no entry, and a point the sender set stays its own.
 * The stored answer stays one per parcel; only the few book-placed parcels of a page are reshaped,
 * from the answer's own address fields, so this costs one indexed read per page otherwise.
 */

/** Who is shown the book's point: staff, and drivers (the parcels assigned to them, to find the door). */
export const seesAddressBook = (user: Pick<SessionUser, 'role'>): boolean => user.role !== 'company';

const BOOK_SOURCES = ['address_book', 'office'];
const CHUNK = 500;
// Every answer starts with its id (packageAnswer.ts lists `id` first); PostgreSQL's json text has spaces.
const LEADING_ID = /^\{\s*"id"\s*:\s*(\d+)/;

/** The ids among `ids` whose point came from the shared book (hot parcels, then those moved to history). */
async function bookPlaced(db: Db, ids: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>();
  const seen = new Set<number>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    const rows = await db
      .select({ id: packageLocation.package_id, source: packageLocation.source })
      .from(packageLocation)
      .where(inArray(packageLocation.package_id, part))
      .all();
    for (const r of rows) {
      seen.add(r.id);
      if (BOOK_SOURCES.includes(r.source)) out.add(r.id);
    }
    const cold = part.filter((id) => !seen.has(id));
    if (!cold.length) continue;
    const kept = await db
      .select({ id: packageHistoryRow.package_id, data: packageHistoryRow.data })
      .from(packageHistoryRow)
      .where(and(eq(packageHistoryRow.source, 'package_location'), inArray(packageHistoryRow.package_id, cold)))
      .all();
    for (const r of kept) {
      const source = (JSON.parse(r.data) as { source?: string }).source;
      if (source && BOOK_SOURCES.includes(source)) out.add(r.id);
    }
  }
  return out;
}

/** The point master data and the geocoder's cache give the parcel's address (the book left out). */
async function ownPoint(resolver: Resolver, p: Package): Promise<{ latitude: number | null; longitude: number | null }> {
  const r = await resolver.resolve({
    customer_address: p.customer_address,
    postcode: p.postcode,
    postcode_name: p.postcode_name,
    suburb_id: p.suburb,
    zone_id: p.zone,
    state_id: p.state,
    country_id: p.country,
    latitude: null,
    longitude: null,
  });
  return { latitude: r.latitude, longitude: r.longitude };
}

function reshape(p: Package, point: { latitude: number | null; longitude: number | null }): Package {
  p.latitude = point.latitude;
  p.longitude = point.longitude;
  p.coordinates = point.latitude == null || point.longitude == null ? null : { latitude: point.latitude, longitude: point.longitude };
  return p;
}

/** Package objects as `user` may see them (reshaped in place; staff and drivers see them as they are). */
export async function packagesFor<T extends Package>(db: Db, user: Pick<SessionUser, 'role'>, pkgs: T[]): Promise<T[]> {
  if (seesAddressBook(user) || !pkgs.length) return pkgs;
  const placed = await bookPlaced(
    db,
    pkgs.map((p) => p.id),
  );
  if (!placed.size) return pkgs;
  const resolver = createResolver(db, { geocoder: false, addressBook: false });
  for (const p of pkgs) if (placed.has(p.id)) reshape(p, await ownPoint(resolver, p));
  return pkgs;
}

/** Answers as JSON text, as `user` may see them: only book-placed parcels are parsed and written again. */
export async function answersFor(db: Db, user: Pick<SessionUser, 'role'>, answers: RawJson[]): Promise<RawJson[]> {
  if (seesAddressBook(user) || !answers.length) return answers;
  const ids = answers.map((a) => Number(LEADING_ID.exec(a.parts[0] ?? '')?.[1] ?? NaN));
  const placed = await bookPlaced(
    db,
    ids.filter((id) => Number.isInteger(id)),
  );
  if (!placed.size) return answers;
  const resolver = createResolver(db, { geocoder: false, addressBook: false });
  const out: RawJson[] = [];
  for (let i = 0; i < answers.length; i++) {
    if (!placed.has(ids[i]!)) {
      out.push(answers[i]!);
      continue;
    }
    const p = JSON.parse(answers[i]!.text) as Package;
    out.push(new RawJson(JSON.stringify(reshape(p, await ownPoint(resolver, p)))));
  }
  return out;
}

/** One answer (or none) as `user` may see it. */
export async function answerFor(db: Db, user: Pick<SessionUser, 'role'>, answer: RawJson | undefined): Promise<RawJson | undefined> {
  return answer ? (await answersFor(db, user, [answer]))[0] : answer;
}

/**
 * A parcel's story as `user` may see it: the package as above, and an office pin's position left out
 * of its events (pinning one parcel moves every open parcel to the address, other companies' too, so
 * the pin is the shared book's point). Drivers' recorded positions for this parcel stay.
 */
export async function storyFor<
  S extends { package: Package; events: { action: string; latitude: number | null; longitude: number | null }[] },
>(db: Db, user: Pick<SessionUser, 'role'>, story: S): Promise<S> {
  if (seesAddressBook(user)) return story;
  await packagesFor(db, user, [story.package]);
  for (const e of story.events) {
    if (e.action !== 'location_pinned') continue;
    e.latitude = null;
    e.longitude = null;
  }
  return story;
}
