import { isOpenOnRoute, mustGoBack, offers, type RuleContext } from '../../shared/driverActions';
import type { ViewPackage } from '../sync/index';

/**
 * The shared rules' context for a copy on the phone (shared/driverActions.ts): the phone holds only
 * its driver's parcels (the feed takes others away), so ownership is the server's to check.
 */
export const rulesFor = (p: ViewPackage, max: number): RuleContext => ({
  driverId: p.assigned_to_id ?? 0,
  maxAttempts: max,
  wasDrivers: true,
});

/** Failed attempts of this delivery cycle, a queued failure counted in (client/sync/view.ts), never read from a label. */
export const failures = (p: ViewPackage) => p.attempts;

/** A failed parcel that used its attempts goes back to the depot: the server's rule, the same function. */
export const mustReturn = (p: ViewPackage, max: number): boolean => mustGoBack(p, max);

/** Parcels still to be scanned onto the van: assigned, or failed and allowed another attempt (a reattempt needs a new scan). */
export const toLoad = (p: ViewPackage, max: number) => offers('load', p, rulesFor(p, max));
export const toDeliver = (p: ViewPackage) => p.status === 'out_for_delivery';

/** Statuses the server still orders on a delivery route (server/services/routes/shape.ts reads the same list). */
export const isOpen = (p: ViewPackage) => isOpenOnRoute(p.status);

export interface DayCounts {
  toLoad: number;
  toDeliver: number;
  delivered: number;
  failed: number;
  back: number;
}

export function countDay(packages: ViewPackage[], max: number): DayCounts {
  const c: DayCounts = { toLoad: 0, toDeliver: 0, delivered: 0, failed: 0, back: 0 };
  for (const p of packages) {
    if (toLoad(p, max)) c.toLoad += 1;
    if (toDeliver(p)) c.toDeliver += 1;
    if (p.status === 'delivered') c.delivered += 1;
    if (p.status === 'failed') c.failed += 1;
    if (mustReturn(p, max)) c.back += 1;
  }
  return c;
}

/** The stop to drive to: the first loaded parcel in route order, else the first still to load. */
export function nextStop(ordered: ViewPackage[], heldIds: Set<number>, max: number): ViewPackage | null {
  const open = ordered.filter((p) => !heldIds.has(p.id));
  return open.find(toDeliver) ?? open.find((p) => toLoad(p, max)) ?? null;
}
