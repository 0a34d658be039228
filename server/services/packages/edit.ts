import { setRecipientEmail } from '../recipients/recipient';
import { normaliseRecipientPhone } from '../recipients/phone';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { changeLog, packageEvent, packageLocation, packagePricing, pkg } from '../../db/schema/index';
import { referencingRows } from '../../db/references';
import { conflict, forbidden } from '../../errors';
import { isFinal, type PackageStatus } from '../../../shared/lifecycle';
import type { PackageUpdate, STATUS_CHANGE_TARGETS } from '../../../shared/schemas/package';
import { setParcelRequirements } from '../door/rules';
import type { SessionUser } from '../auth/session';
import { codRow, setCodAmount } from '../cod/parcel';
import { assertHawbFree, checkCompanyActive, foreignKeyError, packageValues, volumetricWeight } from './create';
import { recordLocation, relocate } from '../geo/location';
import { transition, updatePackage } from './lifecycle';
import type { PackageRow } from './shape';
import { netCharged, repriceParcel } from '../money/parcelPricing';
import { audit } from '../audit/record';
import { livePackage } from '../history/live';

/** Event actions that record paperwork, not movement: a parcel with only these never left the shipper. */
const PAPERWORK_ACTIONS = ['create', 'upload', 'update'];

/**
 * Edits the details of a parcel that is not final. State and assignment have their own operations;
 * the hawb is the printed label, so it changes only before anyone has handled the parcel.
 */
export async function editPackage(deps: Deps, user: SessionUser, id: number, input: PackageUpdate): Promise<PackageRow> {
  const { db } = deps;
  const row = await livePackage(db, user, id);
  if (isFinal(row.status as PackageStatus)) {
    throw conflict(`Package ${row.hawb} is ${row.status.replace(/_/g, ' ')} (final); it can no longer be edited`, {
      package: row.id,
      status: row.status,
    });
  }
  const { status: _s, assigned_to_id: _a, assigned_to: _t, driver: _d, is_scanned: _i, landed: _l, zone: _z, ...fields } = input;
  const values = packageValues(fields);
  await normaliseRecipientPhone(db, values);
  if (fields.hawb !== undefined && fields.hawb !== row.hawb) {
    if (row.status !== 'created')
      throw conflict(`Package ${row.hawb} has been handled; its hawb (the printed label) can no longer change`, {
        package: row.id,
        status: row.status,
      });
    await assertHawbFree(db, fields.hawb, row.id);
  }
  if (fields.company !== undefined && fields.company !== row.company_id) {
    if (user.role === 'company') throw forbidden('A company can only manage its own packages');
    if (fields.company != null) await checkCompanyActive(db, fields.company);
  }
  const located = await relocate(deps, row, values);
  if (fields.length !== undefined || fields.width !== undefined || fields.height !== undefined) {
    values.volume_weighted = volumetricWeight(fields.length ?? row.length, fields.width ?? row.width, fields.height ?? row.height);
  }
  const priceFields = PRICE_FIELDS.filter((k) => fields[k] !== undefined && fields[k] !== (row as Record<string, unknown>)[COLUMN[k] ?? k]);
  const measures = priceFields.filter((k) => MEASURES.includes(k));
  if (measures.length && row.landed) {
    throw conflict(
      `Package ${row.hawb} has been received at the depot: its measured weight and size win. Record a change as a weight adjustment with a reason`,
      { package: row.id, fields: measures, reason: 'received' },
    );
  }
  if (fields.company !== undefined && fields.company !== row.company_id && (await netCharged(db, row.id)) !== 0) {
    throw conflict(`Package ${row.hawb} has been charged to its company; cancel it and create it again for another company`, {
      package: row.id,
    });
  }
  const before = Object.fromEntries(Object.keys(fields).map((k) => [k, (row as Record<string, unknown>)[COLUMN[k] ?? k] ?? null]));
  if (fields.recipient_email !== undefined) await setRecipientEmail(db, deps.clock.now(), row.id, fields.recipient_email);
  if (fields.proof_requirements !== undefined) await setParcelRequirements(db, deps.clock.now(), row.id, fields.proof_requirements);
  const now = deps.clock.now();
  let updated: PackageRow;
  try {
    updated = await updatePackage(db, now, row, values, 'update', { userId: user.id }, { data: { fields: Object.keys(fields), before } });
  } catch (err) {
    foreignKeyError(err);
  }
  if (located) await recordLocation(db, row.id, located, now);
  // The amount to collect follows the parcel's company (it is owed to it), so a company change re-sets it too.
  if (fields.cod_amount_cents !== undefined || (fields.company !== undefined && fields.company !== row.company_id)) {
    const amount = fields.cod_amount_cents !== undefined ? fields.cod_amount_cents : (await codRow(db, row.id))?.amount_cents;
    if (amount !== undefined) await setCodAmount(db, now, updated, amount);
  }
  // Before depot receipt the sender's figures are what is billed; a new zone (the address located
  // again: the zone follows it, never the caller) is a new price too: either re-prices, charging or
  // refunding the difference once.
  if (priceFields.length || updated.zone_id !== row.zone_id) {
    updated = await repriceParcel(
      deps,
      updated,
      user.id,
      `${[...priceFields, ...(updated.zone_id !== row.zone_id ? ['zone'] : [])].join(', ')} changed`,
    );
  }
  return updated;
}

/** Fields whose change moves the price; MEASURES are the ones the depot measures (they win after receipt). */
const PRICE_FIELDS = ['weight', 'length', 'width', 'height', 'suburb', 'postcode', 'pkg_type', 'company'] as const;
const MEASURES: readonly string[] = ['weight', 'length', 'width', 'height'];
const COLUMN: Record<string, string> = { zone: 'zone_id', suburb: 'suburb_id', company: 'company_id' };

/**
 * A weight (or size) change with a reason: before receipt the sender corrects it; after receipt it
 * is the depot's measurement, which wins. Either way the parcel is re-priced once and the change is
 * in its history and the audit log, before -> after.
 */
export async function adjustWeight(
  deps: Deps,
  user: SessionUser,
  id: number,
  input: { weight: number; length?: number | null; width?: number | null; height?: number | null; reason: string },
): Promise<PackageRow> {
  const { db } = deps;
  const row = await livePackage(db, user, id);
  if (isFinal(row.status as PackageStatus)) {
    throw conflict(`Package ${row.hawb} is ${row.status.replace(/_/g, ' ')} (final); its weight can no longer change`, {
      package: row.id,
      status: row.status,
    });
  }
  const values: Partial<typeof pkg.$inferInsert> = { weight: input.weight };
  for (const k of ['length', 'width', 'height'] as const) if (input[k] !== undefined) values[k] = input[k];
  if (input.length !== undefined || input.width !== undefined || input.height !== undefined) {
    values.volume_weighted = volumetricWeight(input.length ?? row.length, input.width ?? row.width, input.height ?? row.height);
  }
  const before = { weight: row.weight, length: row.length, width: row.width, height: row.height, price: row.price };
  const now = deps.clock.now();
  let updated = await updatePackage(
    db,
    now,
    row,
    values,
    'weight_adjusted',
    { userId: user.id },
    { note: input.reason, data: { before, measured_at_depot: row.landed } },
  );
  updated = await repriceParcel(deps, updated, user.id, `${row.landed ? 'measured at the depot' : 'corrected'}: ${input.reason}`);
  await audit(db, now, user.id, 'package.weight_adjusted', `package:${row.id}`, {
    hawb: row.hawb,
    reason: input.reason,
    before,
    after: { weight: updated.weight, length: updated.length, width: updated.width, height: updated.height, price: updated.price },
  });
  return updated;
}

/**
 * A parcel created by mistake may be deleted while nobody has handled it (still `created`, no scan
 * or transition beyond its creation, nothing else pointing at it); afterwards it is history and can
 * only be cancelled or archived.
 */
export async function deletePackage(deps: Deps, user: SessionUser, id: number): Promise<PackageRow> {
  const { db } = deps;
  const row = await livePackage(db, user, id);
  const moved =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(packageEvent)
        .where(and(eq(packageEvent.package_id, id), notInArray(packageEvent.action, PAPERWORK_ACTIONS)))
        .get()
    )?.n ?? 0;
  if (row.status !== 'created' || moved > 0) {
    throw conflict(`Package ${row.hawb} has already moved (${row.status.replace(/_/g, ' ')}); cancel or archive it instead`, {
      package: row.id,
      status: row.status,
    });
  }
  const refs = (await referencingRows(db, 'package', id)).filter(
    (r) => !r.endsWith(' package_event') && !r.endsWith(' package_location') && !r.endsWith(' package_pricing'),
  );
  if (refs.length)
    throw conflict(`Package ${row.hawb} is still referenced by ${refs.join(', ')}; archive it instead`, { referenced_by: refs });
  await db.delete(packageEvent).where(eq(packageEvent.package_id, id)).run();
  await db.delete(packageLocation).where(eq(packageLocation.package_id, id)).run();
  // Its pricing state goes with it (a charged parcel never gets here: the ledger references it).
  await db.delete(packagePricing).where(eq(packagePricing.package_id, id)).run();
  await db.delete(pkg).where(eq(pkg.id, id)).run();
  // Company screens and any device holding it learn that it is gone.
  await db
    .insert(changeLog)
    .values({ entity: 'package', entity_id: id, op: 'remove', driver_id: null, company_id: row.company_id, created_at: deps.clock.now() })
    .run();
  return row;
}

/**
 * An admin or supervisor sets a status by hand, through the lifecycle table like every other change.
 * A parcel put back to `received` is on the depot shelf again: no driver, not on a van.
 */
export async function changeStatus(
  deps: Deps,
  user: SessionUser,
  id: number,
  to: (typeof STATUS_CHANGE_TARGETS)[number],
  note?: string,
): Promise<PackageRow> {
  const row = await livePackage(deps.db, user, id);
  const patch: Partial<typeof pkg.$inferInsert> =
    to === 'received' ? { landed: true, assigned_to_id: null, is_scanned: false } : to === 'returned' ? { is_scanned: false } : {};
  return transition(deps.db, deps.clock.now(), row, to, 'status_change', { userId: user.id }, { note: note ?? null }, patch);
}
