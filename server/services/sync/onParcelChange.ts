import type { ParcelSubscriber } from '../packages/changes';
import { logPackageChange } from './changes';

/**
 * Devices hear every parcel change through the change feed: an upsert for its driver and company,
 * a remove for a driver it was taken from. Last of the subscribers: on PostgreSQL the feed's lock is
 * held from here to COMMIT, one writer at a time across processes.
 */
export const feedSubscriber: ParcelSubscriber = {
  name: 'feed',
  async receive({ db, now, before, after }) {
    await logPackageChange(
      db,
      before.id,
      { driverId: after.assigned_to_id, previousDriverId: before.assigned_to_id, companyId: after.company_id },
      now,
    );
  },
};
