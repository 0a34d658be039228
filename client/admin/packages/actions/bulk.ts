import type { Role } from '../../../../shared/roles';
import { allowedActions, type ActionKind } from './rules';

/** Bulk actions a role may offer on a selection: any the role could take on some open parcel (the server refuses the rest by name). */
export function bulkKinds(role: Role): ActionKind[] {
  const seen = new Set<ActionKind>();
  for (const status of ['created', 'failed', 'returned'] as const) for (const k of allowedActions({ status }, role)) seen.add(k);
  // Re-attempt picks one driver for the whole selection: kept to the detail page, where the parcel's story is in view.
  seen.delete('reattempt');
  return (['cancel', 'return_to_sender', 'force_deliver'] as const).filter((k) => seen.has(k));
}
