import type { ViewPackage } from '../sync/index';

/** Failures recorded for the parcel (all cycles: the Package record carries no per-cycle count). */
export const failures = (p: ViewPackage) => p.package_failed_delivery_status.length + (p.pending?.label.startsWith('Failed') && p.status === 'failed' ? 1 : 0);

export function mustReturn(p: ViewPackage, max: number): boolean {
  return p.status === 'failed' && failures(p) >= max;
}

/** Parcels still to be scanned onto the van: assigned, or failed and allowed another attempt (a reattempt needs a new scan). */
export const toLoad = (p: ViewPackage, max: number) => (p.status === 'assigned' && !p.is_scanned) || (p.status === 'failed' && !mustReturn(p, max));
export const toDeliver = (p: ViewPackage) => p.status === 'out_for_delivery';

/** Statuses the server still orders on a delivery route (server/services/routes/shape.ts OPEN). */
const OPEN = new Set(['created', 'received', 'assigned', 'out_for_delivery', 'failed']);
export const isOpen = (p: ViewPackage) => OPEN.has(p.status);

export interface DayCounts { toLoad: number; toDeliver: number; delivered: number; failed: number; back: number }

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
