import type { Deps } from './deps';
import { parcelChanges, type ParcelChanges } from './services/packages/changes';
import { moneySubscriber } from './services/money/onParcelChange';
import { webhookSubscriber } from './services/webhooks/onParcelChange';
import { recipientSubscriber } from './services/recipients/onParcelChange';
import { etaSubscriber } from './services/dispatch/onParcelChange';
import { feedSubscriber } from './services/sync/onParcelChange';

/**
 * Who hears a parcel's change, in this order, in the change's unit of work: money (a cancel's
 * refund), webhooks, recipients' messages, route ETAs (after the messages, which read the ETAs as they
 * were), and the sync feed last. The lifecycle imports none of them (docs/architecture.md).
 */
export function parcelSubscribers(deps: Deps): ParcelChanges {
  return parcelChanges([moneySubscriber, webhookSubscriber, recipientSubscriber, etaSubscriber(deps), feedSubscriber]);
}
