import type { OutboxRow, Rejection } from '../sync/index';

/** What happened and what to do with the parcel in hand, in a driver's words, from the server's refusal. */
export interface Story { what: string; todo: string; keepParcel: boolean }

const isDelivery = (path: string) => /\/deliver\/$/.test(path);

export function storyOf(rejection: Rejection | null, path = ''): Story {
  const d = rejection?.details ?? {};
  const status = typeof d.status === 'string' ? d.status : null;
  const reason = typeof d.reason === 'string' ? d.reason : null;
  const delivery = isDelivery(path);
  if (status === 'cancelled') {
    return {
      what: 'The office cancelled this parcel while you were offline.',
      todo: delivery
        ? 'If you still have it, keep it and bring it back to the depot. If you left it at the address, tell the office. A supervisor has your photos and signature.'
        : 'Keep the parcel and bring it back to the depot.',
      keepParcel: true,
    };
  }
  if (status === 'delivered') return { what: 'This parcel was already recorded as delivered.', todo: 'A supervisor has been told and will check it. Nothing to do unless the office calls.', keepParcel: false };
  if (status === 'returned_to_sender') return { what: 'The office returned this parcel to the sender meanwhile.', todo: 'Keep the parcel and bring it back to the depot.', keepParcel: true };
  if (reason === 'must_return') return { what: 'This parcel used all its delivery attempts.', todo: 'Keep the parcel and bring it back to the depot.', keepParcel: true };
  if (reason === 'not_yours' || rejection?.code === 'not_found') {
    return { what: 'The office gave this parcel to another driver.', todo: 'Keep the parcel and bring it back to the depot, or call the office.', keepParcel: true };
  }
  switch (rejection?.code) {
    case 'invalid_transition': return { what: 'The parcel changed at the office meanwhile.', todo: 'Call the office; discard once they have it right. Retrying will be refused again.', keepParcel: false };
    case 'file_lost': return { what: 'A photo of this action is gone from the phone.', todo: 'Discard it and record the delivery again.', keepParcel: false };
    case 'validation_error': return { what: 'The office could not accept what was sent.', todo: 'Retry once; if it comes back, discard and raise a support ticket.', keepParcel: false };
    default: return { what: 'The office refused this.', todo: 'Retry when the office has fixed the problem, or discard it.', keepParcel: false };
  }
}

export const storyOfRow = (row: OutboxRow) => storyOf(row.rejection, row.path);
