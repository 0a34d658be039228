import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { packageEvent, pkg, zone } from '../../db/schema/index';
import { badRequest, conflict } from '../../errors';
import { isFinal, type PackageStatus } from '../../../shared/lifecycle';
import type { SessionUser } from '../auth/session';
import { audit } from '../audit/record';
import { livePackage } from '../history/live';
import { repriceParcel } from '../money/parcelPricing';
import { updatePackage } from './lifecycle';
import type { PackageRow } from './shape';

/**
 * A parcel's zone follows its address (geo/resolve.ts: master data's zone wins over any zone sent
 * with it). The one exception is this: the office sets a parcel's zone by hand, with a reason, in
 * the parcel's history and the audit log. The override holds while the parcel's address is the one
 * it was made for; a new address is located (and priced) again.
 */
export const ZONE_OVERRIDE_ACTION = 'zone_override';

type Address = Pick<PackageRow, 'customer_address' | 'postcode' | 'postcode_name' | 'suburb_id'>;
const addressOf = (row: Address) => ({
  customer_address: row.customer_address ?? null,
  postcode: row.postcode ?? null,
  postcode_name: row.postcode_name ?? null,
  suburb_id: row.suburb_id ?? null,
});
const sameAddress = (a: ReturnType<typeof addressOf>, b: ReturnType<typeof addressOf>) =>
  a.customer_address === b.customer_address &&
  a.postcode === b.postcode &&
  a.postcode_name === b.postcode_name &&
  a.suburb_id === b.suburb_id;

/**
 * The zone the office set for this parcel at its current address, or null. Read only when a new
 * resolution disagrees with the stored zone (rare), so it costs nothing on the common path.
 */
export async function standingZoneOverride(db: Db, row: PackageRow): Promise<number | null> {
  const last = await db
    .select({ data: packageEvent.data })
    .from(packageEvent)
    .where(and(eq(packageEvent.package_id, row.id), eq(packageEvent.action, ZONE_OVERRIDE_ACTION)))
    .orderBy(desc(packageEvent.id))
    .get();
  if (!last?.data) return null;
  const data = JSON.parse(last.data) as { zone?: number; address?: ReturnType<typeof addressOf> };
  if (data.zone == null || !data.address || !sameAddress(data.address, addressOf(row))) return null;
  return data.zone === row.zone_id ? data.zone : null;
}

/** The office sets a parcel's zone: re-priced once (charge or refund of the difference), recorded and audited. */
export async function overrideZone(
  deps: Deps,
  user: SessionUser,
  id: number,
  input: { zone: number; reason: string },
): Promise<PackageRow> {
  const { db } = deps;
  const row = await livePackage(db, user, id);
  if (isFinal(row.status as PackageStatus)) {
    throw conflict(`Package ${row.hawb} is ${row.status.replace(/_/g, ' ')} (final); its zone can no longer change`, {
      package: row.id,
      status: row.status,
    });
  }
  const live = await db
    .select({ id: zone.id })
    .from(zone)
    .where(and(eq(zone.id, input.zone), isNull(zone.deleted_at)))
    .get();
  if (!live) throw badRequest(`Zone ${input.zone} does not exist`, [{ path: 'zone', message: 'unknown zone' }]);
  const now = deps.clock.now();
  const before = { zone: row.zone_id, price: row.price };
  let updated = await updatePackage(
    db,
    now,
    row,
    { zone_id: input.zone } satisfies Partial<typeof pkg.$inferInsert>,
    ZONE_OVERRIDE_ACTION,
    { userId: user.id },
    { note: input.reason, data: { zone: input.zone, before: row.zone_id, address: addressOf(row) } },
  );
  if (updated.zone_id !== row.zone_id) updated = await repriceParcel(deps, updated, user.id, `zone set by the office: ${input.reason}`);
  await audit(db, now, user.id, 'package.zone_override', `package:${row.id}`, {
    hawb: row.hawb,
    reason: input.reason,
    before,
    after: { zone: updated.zone_id, price: updated.price },
  });
  return updated;
}
