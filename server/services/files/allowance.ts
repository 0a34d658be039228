import { and, eq, gte, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { storedFile, user } from '../../db/schema/index';
import { ApiError } from '../../errors';

/**
 * How much a company (or a user without one: staff, drivers) may store: a total quota and a rate in
 * bytes per minute, counted from the files it already holds. Checked before a byte is written, so a
 * refused upload leaves nothing behind.
 */
export async function checkUploadAllowance(deps: Deps, ownerId: number, size: number): Promise<void> {
  const { uploadQuotaBytes, uploadBytesPerMinute } = deps.config;
  const owner = await deps.db.select({ company: user.company_id }).from(user).where(eq(user.id, ownerId)).get();
  const scope = owner?.company != null ? eq(user.company_id, owner.company) : eq(user.id, ownerId);
  const used = async (since: number | null) => (await deps.db.select({ n: sql<number>`coalesce(sum(${storedFile.size}), 0)` }).from(storedFile)
    .innerJoin(user, eq(user.id, storedFile.owner_id))
    .where(and(scope, since == null ? undefined : gte(storedFile.created_at, since))).get())?.n ?? 0;
  const who = owner?.company != null ? 'Your company' : 'You';
  if (await used(deps.clock.now() - 60_000) + size > uploadBytesPerMinute) {
    throw new ApiError(429, 'rate_limited', `${who} uploaded more than ${Math.round(uploadBytesPerMinute / 1024 / 1024)} MiB in the last minute; try again shortly`, [], { retry_after: 60 });
  }
  if (owner?.company != null && await used(null) + size > uploadQuotaBytes) {
    throw new ApiError(413, 'payload_too_large', `Your company's storage of ${Math.round(uploadQuotaBytes / 1024 / 1024)} MiB is full; ask an administrator`, [{ path: 'file', message: 'quota exceeded' }]);
  }
}
