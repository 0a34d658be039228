import type { ParcelSubscriber } from '../packages/changes';
import { enqueueWebhookEvents } from './events';

/** Companies' endpoints hear the states they subscribed to (the delivery itself happens after COMMIT). */
export const webhookSubscriber: ParcelSubscriber = {
  name: 'webhooks',
  async receive({ db, now, before, after, to }) {
    await enqueueWebhookEvents(db, now, after, to, before.status);
  },
};
