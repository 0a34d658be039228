import type { ParcelSubscriber } from '../packages/changes';
import { recipientHook } from './notify';

/** Recipients hear their parcel's event, and the next stops "arriving soon" when a stop is done. */
export const recipientSubscriber: ParcelSubscriber = {
  name: 'recipients',
  async receive({ db, now, before, after, to, meta }) {
    const reason = typeof meta.data?.reason === 'string' ? meta.data.reason : null;
    await recipientHook(db, now, before, after, to, reason);
  },
};
