/** The package lifecycle of DESIGN.md section 7: one table, used by the server and the driver app. */
export const PACKAGE_STATUSES = [
  'pickup_requested',
  'picked_up',
  'created',
  'received',
  'assigned',
  'out_for_delivery',
  'delivered',
  'failed',
  'returned',
  'returned_to_sender',
  'cancelled',
] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

export const FINAL_STATUSES: readonly PackageStatus[] = ['delivered', 'returned_to_sender', 'cancelled'];

/** Statuses a parcel can still be cancelled from: everything before it left on a van. */
export const CANCELLABLE_STATUSES: readonly PackageStatus[] = ['pickup_requested', 'picked_up', 'created', 'received', 'assigned'];

const TRANSITIONS: Record<PackageStatus, readonly PackageStatus[]> = {
  pickup_requested: ['picked_up', 'cancelled'],
  // Straight onto the van when the driver who collected it delivers it on the same route (issue 32, pickup-and-delivery pairs).
  picked_up: ['received', 'out_for_delivery', 'cancelled'],
  // A parcel may be given to a driver before it is scanned in at the depot (direct-to-driver runs).
  created: ['received', 'assigned', 'cancelled'],
  received: ['assigned', 'cancelled'],
  // Back to `created`/`received` is an unassignment; `assigned` again is a reassignment.
  assigned: ['out_for_delivery', 'assigned', 'received', 'created', 'cancelled'],
  // Back to `assigned` is the driver unloading it (reset scan) or staff reassigning it.
  out_for_delivery: ['delivered', 'failed', 'assigned'],
  delivered: [],
  // Reattempt by the same driver, by another driver, back to the depot, or (the office decides while it
  // is still with its driver) straight back to the sender: no depot receipt is recorded that did not happen.
  failed: ['out_for_delivery', 'assigned', 'returned', 'returned_to_sender'],
  returned: ['assigned', 'returned_to_sender'],
  returned_to_sender: [],
  cancelled: [],
};

/** Human labels (staff screens, public tracking). */
export const STATUS_LABELS: Record<PackageStatus, string> = {
  pickup_requested: 'Pickup requested',
  picked_up: 'Picked up',
  created: 'Shipment created',
  received: 'Received at depot',
  assigned: 'Assigned to a driver',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  failed: 'Delivery attempted',
  returned: 'Returned to depot',
  returned_to_sender: 'Returned to sender',
  cancelled: 'Cancelled',
};

export const DEFAULT_MAX_ATTEMPTS = 3;

export function isFinal(status: PackageStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

export function allowedTransitions(from: PackageStatus): readonly PackageStatus[] {
  return TRANSITIONS[from];
}

export function canTransition(from: PackageStatus, to: PackageStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** After the last allowed attempt a failed parcel may only go back to the depot. */
export function mustReturn(attempts: number, maxAttempts = DEFAULT_MAX_ATTEMPTS): boolean {
  return attempts >= maxAttempts;
}

/**
 * Why `from -> to` is refused for a parcel with `attempts` failed attempts, or null when allowed.
 * `force` (admin force-deliver / force-fail) skips the table but never leaves a final state.
 *
 * The attempt limit is decided here, once, for every path (issue 18): it binds forced actions too.
 * A failed parcel that used its attempts may only go back: to the depot (`returned`), or to the sender;
 * from the depot it goes to the sender or starts a new delivery cycle (redelivery resets the count). So
 * an admin cannot force-deliver it, and no driver list offers it (`offerableToDriver`).
 */
export function transitionProblem(
  from: PackageStatus,
  to: PackageStatus,
  opts: { attempts?: number; maxAttempts?: number; force?: boolean } = {},
): 'final' | 'not_allowed' | 'must_return' | null {
  if (isFinal(from)) return 'final';
  // Forcing a parcel into the state it is already in would only count a second attempt.
  if ((!opts.force || from === to) && !canTransition(from, to)) return 'not_allowed';
  if (from === 'failed' && to !== 'returned' && to !== 'returned_to_sender' && mustReturn(opts.attempts ?? 0, opts.maxAttempts))
    return 'must_return';
  return null;
}

/** Whether a driver's lists (remaining, today) may offer the parcel: never one that must come back. */
export function offerableToDriver(status: PackageStatus, attempts: number, maxAttempts = DEFAULT_MAX_ATTEMPTS): boolean {
  if (isFinal(status)) return false;
  return !(status === 'failed' && mustReturn(attempts, maxAttempts));
}

export function isPackageStatus(value: string): value is PackageStatus {
  return (PACKAGE_STATUSES as readonly string[]).includes(value);
}

export function statusLabel(status: string): string {
  return isPackageStatus(status) ? STATUS_LABELS[status] : status;
}
