import { eq } from 'drizzle-orm';
import type { SyncDevice } from '../../../shared/schemas/sync';
import type { Db } from '../../db/client';
import { device } from '../../db/schema/index';
import { ApiError } from '../../errors';

/**
 * What this server remembers of a device's seqs. A device it never heard of answers 0 rather than
 * 404: after a restore from a backup older than the device's first action that is the truth, and
 * the device must re-send everything it journaled. Another user's device answers 404 so ids
 * cannot be probed.
 */
export async function deviceLastSeq(db: Db, userId: number, deviceId: string): Promise<SyncDevice> {
  const row = await db
    .select({ user_id: device.user_id, last_seq: device.last_seq })
    .from(device)
    .where(eq(device.device_id, deviceId))
    .get();
  if (!row) return { device_id: deviceId, last_seq: 0 };
  if (row.user_id !== userId) throw new ApiError(404, 'not_found', 'No such device');
  return { device_id: deviceId, last_seq: row.last_seq };
}
