/**
 * A collection that could not be made at the pickup point (issue 32, pickup-and-delivery pairs),
 * declared once: the reasons the phone offers and the server accepts, the path the phone queues and
 * the server serves, and who may record one. The server decides with `collectionFailProblem` before
 * it writes; the phone asks the same function what to offer.
 */
export const COLLECTION_FAIL_REASONS = ['not_ready', 'closed', 'refused', 'no_access'] as const;
export type CollectionFailReason = (typeof COLLECTION_FAIL_REASONS)[number];

/** The reasons in a driver's and the office's words (the phone's buttons, the parcel's history). */
export const COLLECTION_FAIL_LABELS: Record<CollectionFailReason, string> = {
  not_ready: 'Parcel not there or not ready',
  closed: 'Shipper closed',
  refused: 'Shipper would not hand it over',
  no_access: 'Could not get to the pickup point',
};

/** The route as the server declares it, and the path relative to the API base as the phone queues it. */
export const COLLECTION_FAIL = {
  route: '/pickup-point-scan/{id}/fail/',
  path: (packageId: number) => `pickup-point-scan/${packageId}/fail/`,
} as const;

/** What the rule reads of a parcel: the same fields on the server's row and the phone's copy. */
export interface CollectionState {
  status: string;
  assigned_to_id: number | null;
}

/**
 * Why a driver may not record a failed collection of this parcel, or null when they may: only a
 * parcel still waiting at its pickup point for them. Collected already is `not_allowed`; a parcel the
 * office gave to someone else (or took back) is `reassigned`; cancelled is `final`.
 */
export function collectionFailProblem(p: CollectionState, driverId: number): 'final' | 'not_allowed' | 'reassigned' | null {
  if (p.status === 'cancelled' || p.status === 'delivered' || p.status === 'returned_to_sender') return 'final';
  if (p.assigned_to_id !== driverId) return 'reassigned';
  if (p.status !== 'pickup_requested') return 'not_allowed';
  return null;
}
