/** History lines say what a person did, not only the state it led to (a forced delivery reads as forced). */
const ACTION_LABELS: Record<string, string> = {
  create: 'Created',
  upload: 'Created by upload',
  update: 'Details corrected',
  cancel: 'Cancelled',
  force_deliver: 'Force delivered',
  force_fail: 'Force failed',
  return_to_sender: 'Returned to sender',
  redeliver: 'Redelivery assigned',
  assign: 'Assigned to a driver',
  reprice: 'Re-priced',
  priced: 'Priced',
  weight_adjusted: 'Weight adjusted',
  // Issue 36: the history showed raw event names ("route add").
  archive: 'Archived',
  restore: 'Restored',
  unassign: 'Taken off the driver',
  assign_pickup: 'Pickup assigned to a driver',
  pickup_assign: 'Pickup assigned to a driver',
  pickup_unassign: 'Pickup taken off the driver',
  pickup_scan: 'Collected at the pickup point',
  pickup_failed: 'Not collected at the pickup point',
  pickup_upload: 'Pickup created by upload',
  inbound_scan: 'Scanned onto the van',
  depot_scan: 'Scanned in at the depot',
  return_scan: 'Scanned back at the depot',
  scan_repeat: 'Scanned again',
  delivery_update: 'Delivery details updated',
  proof_update: 'Proof of delivery updated',
  delivery_refused_flagged: 'Delivery refused and flagged',
  supervisor_check: 'Checked by a supervisor',
  geocoded: 'Placed on the map',
  location_pinned: 'Pin moved on the map',
  handover_return: 'Handed back to the depot',
  handover_unassign: 'Taken off a departing driver',
  handover_unload: 'Unloaded from the van',
  recipient_instructions: 'Recipient left instructions',
  recipient_reschedule: 'Recipient chose another day',
  webhook_create: "Created by the shipper's system",
  webhook_update: "Updated by the shipper's system",
  webhook_cancel: "Cancelled by the shipper's system",
  route_add: 'Added to a route',
  route_add_pickup: 'Added to a route, to collect and deliver',
  route_remove: 'Taken off a route',
  route_sequence: 'Stop order changed',
  route_optimize: 'Route optimised',
  route_status: 'Route status changed',
  zone_override: 'Zone set by hand',
  placed: 'Placed when its suburb or postcode was added',
  reset_scan: 'Taken off the van',
  flag_resolved: 'Flag resolved by a supervisor',
};

/** What a refused step was, for "<step>_rejected" events (the refusal is recorded with the step's name). */
const REFUSED: Record<string, string> = {
  cancel: 'Cancellation refused',
  return: 'Return refused',
  depot_scan: 'Depot scan refused',
  pickup_scan: 'Pickup scan refused',
  pickup_fail: 'Failed collection refused',
  load: 'Loading onto the van refused',
  deliver: 'Delivery refused by the system',
  fail: 'Failed delivery refused by the system',
};

/** Known actions by name; an unknown one reads as a sentence ("some_new_step" -> "Some new step"), never as a raw name. */
export function eventLabel(action: string, statusText: string | null): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  if (action === 'status_change') return statusText ? `Set by the office to ${statusText}` : 'Status set by the office';
  if (action.endsWith('_rejected')) {
    const step = action.slice(0, -'_rejected'.length);
    return REFUSED[step] ?? `${step.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())} refused`;
  }
  if (statusText && !/_/.test(action)) return statusText;
  const words = action.replace(/_/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : (statusText ?? '');
}
