import type { ParcelSubscriber } from '../packages/changes';
import { refundOnCancel } from './charges';

/** Money hears parcel changes first: a cancelled parcel is refunded what it was charged. */
export const moneySubscriber: ParcelSubscriber = {
  name: 'money',
  async receive({ db, now, before, to, actor }) {
    if (to === 'cancelled') await refundOnCancel(db, now, before, actor.userId);
  },
};
