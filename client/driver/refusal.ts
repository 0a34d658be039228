import { driverActionOfPath, driverOutcome, type ParcelState } from '../../shared/driverActions';
import type { OutboxRow, Rejection } from '../sync/index';

/** What happened and what to do with the parcel in hand, in a driver's words, from the server's refusal. */
export interface Story {
  what: string;
  todo: string;
  keepParcel: boolean;
}

/**
 * What the phone knows besides the refusal: the parcel's status on the phone now (the latest pull),
 * and whether the phone ever had it (on its list, or the driver acted on it). The phone never tells a
 * driver to bring back a parcel it never had (issue 35).
 */
export interface StoryContext {
  status?: string | null;
  hadIt?: boolean;
}

type Act = 'deliver' | 'fail' | 'pickup' | 'scan' | 'other';
function actOf(path: string): Act {
  if (/^pickup-point-scan\//.test(path)) return 'pickup';
  if (/\/deliver\/$|scan-deliver\/$|deliver-by-tracking\/$/.test(path)) return 'deliver';
  if (/\/fail\/$/.test(path)) return 'fail';
  if (/scan/.test(path)) return 'scan';
  return 'other';
}

const FINAL = new Set(['cancelled', 'delivered', 'returned_to_sender']);
const BRING_BACK = 'Keep the parcel and bring it back to the depot.';
const LEAVE = 'Do not load it. Leave it at the depot and tell the staff.';

/** The one story of a parcel that reached a final state at the office: the phone's copy and the refusal agree. */
function finalStory(status: string, act: Act, hadIt: boolean): Story {
  if (status === 'cancelled') {
    if (act === 'deliver') {
      return {
        what: 'The office cancelled this parcel while you were offline.',
        todo: 'If you still have it, keep it and bring it back to the depot. If you left it at the address, tell the office. A supervisor has your photos and signature.',
        keepParcel: true,
      };
    }
    return { what: 'The office cancelled this parcel.', todo: hadIt ? BRING_BACK : LEAVE, keepParcel: hadIt };
  }
  if (status === 'delivered') {
    return act === 'deliver'
      ? {
          what: 'This parcel was already recorded as delivered.',
          todo: 'A supervisor has been told and will check it. Nothing to do unless the office calls.',
          keepParcel: false,
        }
      : {
          what: 'This parcel is already recorded as delivered.',
          todo: hadIt ? 'If you still have it, call the office before doing anything with it.' : LEAVE,
          keepParcel: false,
        };
  }
  return { what: 'The office returned this parcel to the sender.', todo: hadIt ? BRING_BACK : LEAVE, keepParcel: hadIt };
}

const LEAVE_AT_POINT = 'Leave it at the pickup point and tell the office.';

/** A collection at a pickup point refused: the parcel is still at the point, never the depot's. */
function pickupStory(rejection: Rejection | null, reason: string | null, status: string | null): Story {
  if (reason === 'pickup_point_not_scanned')
    return {
      what: 'This parcel waits at a pickup point for any driver: the point’s QR code must be scanned first.',
      todo: 'Scan the pickup point’s QR code, then the parcel again.',
      keepParcel: false,
    };
  if (reason === 'wrong_pickup_point')
    return { what: 'This parcel waits at another pickup point.', todo: `Do not take it. ${LEAVE_AT_POINT}`, keepParcel: false };
  if (reason === 'not_assigned')
    return { what: 'This pickup is not assigned to you yet.', todo: `Do not take it. ${LEAVE_AT_POINT}`, keepParcel: false };
  if (reason === 'not_yours' || reason === 'reassigned')
    return { what: 'Another driver collects this parcel.', todo: `Do not take it. ${LEAVE_AT_POINT}`, keepParcel: false };
  if (reason === 'misread')
    return { what: 'The scanner read only part of the label.', todo: 'Scan the label again. Nothing was recorded.', keepParcel: false };
  if (reason === 'unknown_code' || rejection?.code === 'not_found')
    return {
      what: 'No parcel has this code.',
      todo: `Check the label and scan it again. If it is still unknown, ${LEAVE_AT_POINT.toLowerCase()}`,
      keepParcel: false,
    };
  if (status === 'cancelled')
    return { what: 'The office cancelled this pickup.', todo: `Do not take it. ${LEAVE_AT_POINT}`, keepParcel: false };
  if (status)
    return {
      what: `This parcel is no longer waiting for a pickup (it is ${status.replace(/_/g, ' ')}).`,
      todo: 'If you have taken it, call the office before doing anything with it.',
      keepParcel: false,
    };
  return {
    what: 'The office refused this pickup.',
    todo: 'Retry when the office has fixed the problem, or discard it.',
    keepParcel: false,
  };
}

export function storyOf(rejection: Rejection | null, path = '', ctx: StoryContext = {}): Story {
  const d = rejection?.details ?? {};
  const act = actOf(path);
  if (act === 'pickup')
    return pickupStory(rejection, typeof d.reason === 'string' ? d.reason : null, typeof d.status === 'string' ? d.status : null);
  // Delivering or failing a parcel means the driver had it; a scan says so only if the phone knew the parcel.
  const hadIt = ctx.hadIt ?? (act === 'deliver' || act === 'fail');
  const refusedStatus = typeof d.status === 'string' ? d.status : null;
  const reason = typeof d.reason === 'string' ? d.reason : null;
  // One story per parcel: a final state the phone already shows wins over an older refusal's words.
  const final = [ctx.status, refusedStatus].find((s): s is string => !!s && FINAL.has(s));
  if (final) return finalStory(final, act, hadIt);
  if (reason === 'must_return') return { what: 'This parcel used all its delivery attempts.', todo: BRING_BACK, keepParcel: true };
  if (reason === 'misread') {
    return { what: 'The scanner read only part of the label.', todo: 'Scan the label again. Nothing was recorded.', keepParcel: false };
  }
  if (reason === 'unknown_code' || (rejection?.code === 'not_found' && act === 'scan')) {
    return {
      what: 'No parcel has this code.',
      todo: 'Check the label and scan it again. If it is still unknown, leave the parcel at the depot and tell the staff.',
      keepParcel: false,
    };
  }
  if (reason === 'reassigned' || (reason === 'not_yours' && hadIt)) {
    return act === 'deliver'
      ? {
          what: 'The office gave this parcel to another driver before your delivery reached it.',
          todo: 'Call the office: they have your photos and signature and will sort it out.',
          keepParcel: false,
        }
      : { what: 'The office gave this parcel to another driver.', todo: BRING_BACK, keepParcel: true };
  }
  if (reason === 'not_yours') return { what: 'This parcel is another driver’s.', todo: LEAVE, keepParcel: false };
  if (rejection?.code === 'not_found') {
    return { what: 'This parcel is no longer on your list.', todo: 'Call the office to ask what happened to it.', keepParcel: false };
  }
  switch (rejection?.code) {
    case 'invalid_transition':
      return {
        what: refusedStatus
          ? `The parcel changed at the office meanwhile (it is now ${refusedStatus.replace(/_/g, ' ')}).`
          : 'The parcel changed at the office meanwhile.',
        todo: 'Call the office; clear it once they have it right. Retrying will be refused again.',
        keepParcel: false,
      };
    case 'file_lost':
      return {
        what: 'A photo of this action is gone from the phone.',
        todo: 'Discard it and record the delivery again.',
        keepParcel: false,
      };
    case 'validation_error':
      return {
        what: 'The office could not accept what was sent.',
        todo: 'Retry once; if it comes back, discard and raise a support ticket.',
        keepParcel: false,
      };
    default:
      return { what: 'The office refused this.', todo: 'Retry when the office has fixed the problem, or discard it.', keepParcel: false };
  }
}

/** Whether the phone had the parcel an action names: a delivery or failure, or a scan of a parcel on its list. */
export function hadParcel(row: Pick<OutboxRow, 'path' | 'effect'>): boolean {
  const act = actOf(row.path);
  return act === 'deliver' || act === 'fail' || row.effect?.packageId != null;
}

export const storyOfRow = (row: OutboxRow, status?: string | null) => storyOf(row.rejection, row.path, { status, hadIt: hadParcel(row) });

/**
 * Whether "Retry" is worth offering on a refused driver action: the shared rules (the function the
 * server decides with) run on the phone's latest copy of the parcel. A load past the attempt limit, a
 * delivery of a cancelled parcel or a failure before loading would only be refused again, so the phone
 * does not offer it. Without a copy (a scan by barcode of a parcel the phone never had, a request that
 * is not a driver action) the server is the only judge, unless it said the parcel's state is final.
 */
export function retryOffered(row: Pick<OutboxRow, 'path' | 'rejection'>, copy: ParcelState | null, maxAttempts: number): boolean {
  const action = driverActionOfPath(row.path);
  if (!action) return true;
  // A final state (delivered, cancelled, returned to the sender) never changes back: the parcel has left the phone's list.
  if (row.rejection?.details?.reason === 'final') return false;
  if (!copy) return true;
  return driverOutcome(action.kind, copy, { driverId: copy.assigned_to_id ?? 0, maxAttempts, wasDrivers: true }).ok;
}
