import { and, eq, inArray } from 'drizzle-orm';
import { DEFAULT_RELOAD_S } from '../../../shared/routing/amend';
import type { EtaStop } from '../../../shared/routing/eta';
import type { LatLng } from '../../../shared/routing/haversine';
import type { Db } from '../../db/client';
import { packageEvent } from '../../db/schema/index';
import type { RouteRow } from '../routes/shape';

/** Not on the van: a parcel in one of these has not been scanned out for delivery. */
const NOT_LOADED = new Set(['created', 'received', 'assigned']);

/** What waits at the depot for a route under way, and the stop the office chose to fetch it before. */
export interface DepotWait {
  ids: Set<number>;
  /** From the commit that handed them over (amendCommit.ts); null: before the first of them. */
  before: number | null;
}

/**
 * The parcels of a route under way that wait at the depot (issue 32): handed to its driver after
 * the van left (an insertion at 11:00, the stops of a van that broke down) and not scanned onto the
 * van since. A parcel given before the start and never scanned is taken to be on the van: drivers
 * may deliver without scanning, and nothing says it stayed behind.
 */
export async function depotWait(db: Db, route: RouteRow, parcels: { id: number; status: string }[]): Promise<DepotWait> {
  const none: DepotWait = { ids: new Set(), before: null };
  if (route.status !== 'in_progress' || route.started_at == null) return none;
  const waiting = parcels.filter((p) => NOT_LOADED.has(p.status)).map((p) => p.id);
  if (!waiting.length) return none;
  const rows = await db
    .select({ id: packageEvent.id, pkg: packageEvent.package_id, at: packageEvent.occurred_at, data: packageEvent.data })
    .from(packageEvent)
    .where(and(inArray(packageEvent.package_id, waiting), eq(packageEvent.action, 'assign')))
    .orderBy(packageEvent.id)
    .all();
  const last = new Map(rows.map((r) => [r.pkg, r]));
  const started = route.started_at;
  const after = [...last.values()].filter((r) => r.at > started).sort((a, b) => a.id - b.id);
  const chosen = after.map((r) => reloadBeforeOf(r.data)).filter((x): x is number => x != null);
  return { ids: new Set(after.map((r) => r.pkg)), before: chosen.at(-1) ?? null };
}

function reloadBeforeOf(data: string | null): number | null {
  if (!data) return null;
  try {
    const v = (JSON.parse(data) as { reload_before?: unknown }).reload_before;
    return typeof v === 'number' ? v : null;
  } catch {
    return null;
  }
}

/**
 * The stops in order with the depot visit on the way to the stop the office chose (when it comes no
 * later than the first parcel that waits there), else to that first parcel; how many it loads.
 */
export function withReload(stops: EtaStop[], wait: DepotWait, depot: LatLng | null): { stops: EtaStop[]; before: number; parcels: number } {
  const first = depot ? stops.findIndex((s) => wait.ids.has(s.id)) : -1;
  if (first < 0) return { stops, before: -1, parcels: 0 };
  const chosen = wait.before != null ? stops.findIndex((s) => s.id === wait.before) : -1;
  const before = chosen >= 0 && chosen <= first ? chosen : first;
  return {
    stops: stops.map((s, i) => (i === before ? { ...s, via: { at: depot!, serviceS: DEFAULT_RELOAD_S } } : s)),
    before,
    parcels: stops.filter((s) => wait.ids.has(s.id)).length,
  };
}
