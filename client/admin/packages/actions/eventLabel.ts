/** History lines say what a person did, not only the state it led to (a forced delivery reads as forced). */
const ACTION_LABELS: Record<string, string> = {
  create: 'Created', upload: 'Created by upload', update: 'Details corrected', cancel: 'Cancelled', force_deliver: 'Force delivered',
  force_fail: 'Force failed', return_to_sender: 'Returned to sender', redeliver: 'Redelivery assigned', assign: 'Assigned to a driver',
  reprice: 'Re-priced', priced: 'Priced', weight_adjusted: 'Weight adjusted',
};

export function eventLabel(action: string, statusText: string | null): string {
  return ACTION_LABELS[action] ?? statusText ?? action.replace(/_/g, ' ');
}
