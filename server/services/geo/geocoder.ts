import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { company, geocodeCache, packageLocation, pkg, suburb } from '../../db/schema/index';
import { readGeocodeAnswer, reviewOf, type GeocodeHit } from '../../../shared/geo/address';
import { findPackage, updatePackage } from '../packages/lifecycle';
import { locationInput, recordLocation, resolverFor } from './location';
import { geocodeCacheKey, geocodeQuery } from './resolve';
import { jobLease } from '../background/lease';

export type GeocodeFailure = 'failed' | 'timeout' | 'rate_limited';
export class GeocodeError extends Error {
  constructor(
    readonly kind: GeocodeFailure,
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/**
 * One search against a Nominatim (`/search?format=jsonv2`) or Photon (`/api`) server. Null when it
 * found nothing; a GeocodeError when it failed, timed out or asked us to slow down (429).
 */
export async function geocodeSearch(baseUrl: string, query: string, timeoutMs: number): Promise<GeocodeHit | null> {
  const url = new URL(baseUrl);
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'jsonv2');
  url.searchParams.set('limit', '1');
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json', 'user-agent': 'Courier/1 (parcel geocoding)' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') throw new GeocodeError('timeout', `no answer within ${timeoutMs} ms`);
    throw new GeocodeError('failed', `unreachable: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (res.status === 429) {
    const after = Number(res.headers.get('retry-after'));
    await res.body?.cancel();
    throw new GeocodeError(
      'rate_limited',
      'the geocoder asked us to slow down (429)',
      Number.isFinite(after) && after >= 0 ? after * 1000 : null,
    );
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new GeocodeError('failed', `HTTP ${res.status}`);
  }
  try {
    return readGeocodeAnswer(await res.json());
  } catch (err) {
    throw new GeocodeError('failed', `unreadable answer: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export interface GeocodeWorkerOptions {
  /** Wall time for the rate limit and back-off (tests pass their own). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  log?: (line: string) => void;
  /** Pause after a failure or timeout, so a geocoder that is down is not hammered. */
  failureBackoffMs?: number;
  /** Pause after a 429 without Retry-After. */
  rateLimitBackoffMs?: number;
}

export interface GeocodeRun {
  asked: number;
  located: number;
  notFound: number;
  failed: number;
  rateLimited: boolean;
  fromCache: number;
}

/**
 * The background geocoder: takes parcels waiting for it (each company's oldest in turn), asks the configured server
 * at most one request per `geocoderIntervalMs`, caches every answer (found or not) and moves each
 * parcel to the better point in its own small write. Requests never wait for it. A 429 pauses it
 * for Retry-After; a failure or timeout marks that parcel `failed` (it keeps its master-data point
 * and shows in the review list) and pauses before the next one.
 */
export function createGeocodeWorker(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'writes'>, opts: GeocodeWorkerOptions = {}) {
  const now = opts.now ?? Date.now;
  const sleep =
    opts.sleep ??
    ((ms: number) =>
      new Promise<void>((r) => {
        setTimeout(r, ms);
      }));
  const log = opts.log ?? (() => undefined);
  let lastRequest = Number.NEGATIVE_INFINITY;
  let pausedUntil = 0;
  let running: Promise<GeocodeRun> | null = null;
  // One machine asks the geocoder at a time (its rate limit is the service's, not each machine's);
  // renewed before each request, so a pass longer than the lease never overlaps another machine's.
  const lease = jobLease(deps.db, deps.clock, 'geocoder', 120_000);

  const columns = { id: pkg.id, address: pkg.customer_address, place: pkg.postcode_name, postcode: pkg.postcode, suburbName: suburb.name };
  // Which company is served first in the next pass: turns rotate, so with more companies waiting
  // than a pass has room for, every one of them still gets its turn.
  let turn = 0;

  /**
   * The next `limit` waiting parcels, shared fairly: each company with parcels waiting gets one in
   * turn (its oldest first), so 50,000 rows of one shipper no longer hold up another's one parcel
   * for hours. Each company's oldest waiting parcels are found through its own index
   * (`package_company_idx`, from the time of the oldest waiting parcel on): no pass reads the whole
   * queue, which a window or GROUP BY over every waiting row would (~60-200 ms at 50,000 rows).
   */
  async function waiting(limit: number) {
    const { db } = deps;
    const oldest = await db
      .select({ at: pkg.created_at })
      .from(packageLocation)
      .innerJoin(pkg, eq(pkg.id, packageLocation.package_id))
      .where(eq(packageLocation.pending, true))
      .orderBy(asc(packageLocation.package_id))
      .limit(1)
      .get();
    if (!oldest) return [];
    const owners: (number | null)[] = [
      ...(await db.select({ id: company.id }).from(company).orderBy(asc(company.id)).all()).map((c) => c.id),
      null,
    ];
    const queues: { company: number | null; rows: Awaited<ReturnType<typeof oldestOf>>; more: boolean }[] = [];
    const start = turn % owners.length;
    const share = Math.max(1, Math.ceil(limit / owners.length));
    let visited = 0;
    for (; visited < owners.length && queues.length < limit; visited++) {
      const owner = owners[(start + visited) % owners.length] as number | null;
      const rows = await oldestOf(owner, oldest.at, share);
      if (rows.length) queues.push({ company: owner, rows, more: rows.length === share });
    }
    // Round-robin: the first of each queue, then the second of each...; a queue that filled its share
    // may have more, asked for when the others ran dry.
    const picked: Awaited<ReturnType<typeof oldestOf>> = [];
    for (let round = 0; picked.length < limit; round++) {
      if (!queues.some((q) => q.rows.length > round)) {
        const dry = queues.filter((q) => q.more);
        if (!dry.length) break;
        const want = Math.max(1, Math.ceil((limit - picked.length) / dry.length));
        for (const q of dry) {
          const rows = await oldestOf(q.company, oldest.at, want, q.rows.length);
          q.rows.push(...rows);
          q.more = rows.length === want;
        }
        if (!queues.some((q) => q.rows.length > round)) break;
      }
      for (const q of queues) if (round < q.rows.length && picked.length < limit) picked.push(q.rows[round] as (typeof picked)[number]);
    }
    turn = start + Math.max(1, visited);
    return picked;
  }

  const oldestOf = (owner: number | null, since: number, n: number, skip = 0) =>
    deps.db
      .select(columns)
      .from(pkg)
      .innerJoin(packageLocation, eq(packageLocation.package_id, pkg.id))
      .leftJoin(suburb, eq(suburb.id, pkg.suburb_id))
      .where(
        and(
          owner == null ? isNull(pkg.company_id) : eq(pkg.company_id, owner),
          gte(pkg.created_at, since),
          eq(packageLocation.pending, true),
        ),
      )
      .orderBy(asc(pkg.created_at), asc(pkg.id))
      .limit(n)
      .offset(skip)
      .all();

  const settle = (packageId: number, status: string | null) =>
    deps.writes.run(async () => {
      const { db } = deps;
      const loc = await db
        .select()
        .from(packageLocation)
        .where(and(eq(packageLocation.package_id, packageId), eq(packageLocation.pending, true)))
        .get();
      const row = await findPackage(db, packageId);
      if (!loc || !row) return false;
      const t = deps.clock.now();
      // Suburb and zone stay as they were at acceptance (the price was read from them); only the point improves.
      const r = await resolverFor(deps).resolve({ ...locationInput(row), latitude: null, longitude: null });
      const better = r.source === 'geocoder' || r.source === 'address_book' || r.source === 'office';
      if (better && (r.latitude !== row.latitude || r.longitude !== row.longitude)) {
        await updatePackage(
          db,
          t,
          row,
          { latitude: r.latitude, longitude: r.longitude },
          'geocoded',
          { userId: null },
          { data: { precision: r.precision, source: r.source } },
        );
      }
      // A better point does not settle what the office was asked to check (the suburb is carried over, not re-chosen).
      if (better)
        await recordLocation(db, packageId, { ...r, pending: false, review: r.review ?? reviewOf(loc.review_reason) }, t, loc.job_id);
      else
        await db
          .update(packageLocation)
          .set({ pending: false, geocode_status: status, resolved_at: t })
          .where(eq(packageLocation.package_id, packageId))
          .run();
      return better;
    });

  const remember = (key: string, hit: GeocodeHit | null) =>
    deps.writes.run(async () => {
      await deps.db
        .insert(geocodeCache)
        .values({
          query: key,
          found: hit != null,
          latitude: hit?.latitude ?? null,
          longitude: hit?.longitude ?? null,
          precision: hit?.precision ?? null,
          label: hit?.label ?? null,
          fetched_at: deps.clock.now(),
        })
        .onConflictDoNothing()
        .run();
    });

  async function run(limit: number): Promise<GeocodeRun> {
    const out: GeocodeRun = { asked: 0, located: 0, notFound: 0, failed: 0, rateLimited: false, fromCache: 0 };
    const base = deps.config.geocoderUrl;
    if (!base || now() < pausedUntil || !(await lease.hold())) return out;
    for (const w of await waiting(limit)) {
      const query = geocodeQuery(w.address, w.place ?? w.suburbName, w.postcode);
      if (!query) {
        await settle(w.id, null);
        continue;
      }
      const key = geocodeCacheKey(query);
      const cached = await deps.db.select().from(geocodeCache).where(eq(geocodeCache.query, key)).get();
      if (cached) {
        out.fromCache += 1;
        if (await settle(w.id, cached.found ? null : 'not_found')) out.located += 1;
        continue;
      }
      const wait = lastRequest + deps.config.geocoderIntervalMs - now();
      if (wait > 0) await sleep(wait);
      if (!(await lease.hold())) break;
      lastRequest = now();
      out.asked += 1;
      try {
        const hit = await geocodeSearch(base, query, deps.config.geocoderTimeoutMs);
        await remember(key, hit);
        if (hit == null) out.notFound += 1;
        if (await settle(w.id, hit ? null : 'not_found')) out.located += 1;
      } catch (err) {
        if (!(err instanceof GeocodeError)) throw err;
        log(`[geocoder] ${err.kind}: ${err.message}`);
        if (err.kind === 'rate_limited') {
          out.rateLimited = true;
          pausedUntil = now() + (err.retryAfterMs ?? opts.rateLimitBackoffMs ?? 60_000);
          await deps.writes.run(() =>
            deps.db.update(packageLocation).set({ geocode_status: 'rate_limited' }).where(eq(packageLocation.package_id, w.id)).run(),
          );
          break;
        }
        out.failed += 1;
        await settle(w.id, err.kind);
        pausedUntil = now() + (opts.failureBackoffMs ?? 30_000);
        break;
      }
    }
    return out;
  }

  return {
    /** One pass over up to `limit` waiting parcels; concurrent calls share the pass in progress. */
    runOnce(limit = 50): Promise<GeocodeRun> {
      if (!running)
        running = run(limit).finally(() => {
          running = null;
        });
      return running;
    },
    /** How many parcels wait for the geocoder. */
    async waiting(): Promise<number> {
      return (
        (
          await deps.db
            .select({ n: sql<number>`count(*)` })
            .from(packageLocation)
            .where(eq(packageLocation.pending, true))
            .get()
        )?.n ?? 0
      );
    },
    get pausedUntil() {
      return pausedUntil;
    },
  };
}
