/**
 * What the Fail screen says when the phone holds no reason to pick (issue 36: it blamed sync even
 * after a sync had brought the office's list, which was empty). Null when there are reasons.
 */
export function noReasonsNote(reasons: number, lastSyncedAt: number | null | undefined): string | null {
  if (reasons > 0) return null;
  if (!lastSyncedAt) return 'The reasons have not reached this phone yet: open Sync once you have signal.';
  return (
    'The office has not listed any reasons for a failed delivery, so none can be recorded on the phone yet. ' +
    'Call the office: they add them under Settings, Failed-delivery reasons, and the phone picks them up at its next sync.'
  );
}
