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

const TRANSITIONS: Record<PackageStatus, readonly PackageStatus[]> = {
  pickup_requested: ['picked_up', 'cancelled'],
  picked_up: ['received', 'cancelled'],
  created: ['received', 'assigned', 'cancelled'],
  received: ['assigned', 'cancelled'],
  assigned: ['out_for_delivery', 'received', 'cancelled', 'assigned'],
  out_for_delivery: ['delivered', 'failed', 'assigned'],
  delivered: [],
  failed: ['out_for_delivery', 'returned', 'assigned'],
  returned: ['assigned', 'returned_to_sender'],
  returned_to_sender: [],
  cancelled: [],
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

export function isPackageStatus(value: string): value is PackageStatus {
  return (PACKAGE_STATUSES as readonly string[]).includes(value);
}
