import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { pickupPoint, pkg } from '../../db/schema/index';
import { badRequest, invalidTransition, notFound } from '../../errors';
import type { WebhookPickupCreate, WebhookPickupUpdate } from '../../../shared/schemas/webhooks';
import {
  checkCompanyActive,
  foreignKeyError,
  insertNewPackage,
  packageValues,
  volumetricWeight,
  withoutSenderZone,
} from '../packages/create';
import { recordLocation, relocate } from '../geo/location';
import { normaliseRecipientPhone } from '../recipients/phone';
import { setRecipientEmail } from '../recipients/recipient';
import { repriceForZone } from '../money/charges';
import { transition, updatePackage, type Actor } from '../packages/lifecycle';
import type { PackageRow } from '../packages/shape';

/** Pickup statuses: a parcel a company wants collected, then collected, until the depot receives it. */
export const PICKUP_STATUSES = ['pickup_requested', 'picked_up'] as const;

/** A pickup point a company may send parcels from: live, active and its own (as the pickup-point resource scopes them). */
export async function usablePickupPoint(db: Db, companyId: number | null, id: number) {
  const point = await db
    .select()
    .from(pickupPoint)
    .where(and(eq(pickupPoint.id, id), isNull(pickupPoint.deleted_at)))
    .get();
  if (!point || (companyId != null && point.company_id !== companyId)) {
    throw badRequest(`Pickup point ${id} does not exist`, [{ path: 'pickup_point', message: 'unknown pickup point' }]);
  }
  if (!point.is_active) throw badRequest(`Pickup point ${id} is inactive`, [{ path: 'pickup_point', message: 'inactive pickup point' }]);
  return point;
}

/** A parcel a company asks to have collected: `pickup_requested` from the start, charged like any parcel. */
export async function createPickup(
  deps: Deps,
  companyId: number,
  input: z.output<typeof WebhookPickupCreate>,
  actor: Actor,
  action = 'webhook_create',
): Promise<PackageRow> {
  const { db } = deps;
  const { pickup_point: pointId, ...fields } = input;
  await checkCompanyActive(db, companyId);
  const values = packageValues(withoutSenderZone(fields));
  values.company_id = companyId;
  if (pointId != null) values.pickup_point_id = (await usablePickupPoint(db, companyId, pointId)).id;
  return insertNewPackage(deps, values, input.hawb, 'pickup_requested', input, actor, action);
}

/**
 * A company's own change to a pickup it requested, found by hawb: details while it still waits for
 * collection, or `status: cancelled` (before the depot receives it).
 */
export async function updatePickup(
  deps: Deps,
  companyId: number,
  input: z.output<typeof WebhookPickupUpdate>,
  actor: Actor,
): Promise<PackageRow> {
  const { db } = deps;
  const now = deps.clock.now();
  const row = await db.select().from(pkg).where(eq(pkg.hawb, input.hawb)).get();
  if (!row || row.company_id !== companyId || row.deleted_at != null) throw notFound(`Package ${input.hawb} not found`);
  const { hawb: _hawb, status, note, pickup_point: pointId, ...fields } = input;
  const patch = packageValues(withoutSenderZone(fields));
  await normaliseRecipientPhone(db, patch);
  const changesDetails = Object.keys(patch).length > 0 || pointId !== undefined || fields.recipient_email !== undefined;
  if (!changesDetails && status === undefined) throw badRequest('Nothing to change: send package fields, pickup_point or status');
  if (changesDetails && row.status !== 'pickup_requested') {
    throw invalidTransition(
      `Parcel ${row.hawb} is ${row.status.replace(/_/g, ' ')}; its details can change only while the pickup is requested`,
      { package: row.id, hawb: row.hawb, status: row.status },
    );
  }
  if (pointId !== undefined) patch.pickup_point_id = pointId == null ? null : (await usablePickupPoint(db, companyId, pointId)).id;
  const located = await relocate(deps, row, patch);
  if (fields.length !== undefined || fields.width !== undefined || fields.height !== undefined) {
    patch.volume_weighted = volumetricWeight(fields.length ?? row.length, fields.width ?? row.width, fields.height ?? row.height);
  }
  let current = row;
  try {
    if (Object.keys(patch).length > 0 || pointId !== undefined)
      current = await updatePackage(db, now, current, patch, 'webhook_update', actor, {
        note: note ?? null,
        data: { fields: Object.keys(patch) },
      });
  } catch (err) {
    foreignKeyError(err);
  }
  if (located) await recordLocation(db, row.id, located, now);
  if (fields.recipient_email !== undefined) await setRecipientEmail(db, now, row.id, fields.recipient_email);
  if (current.zone_id !== row.zone_id) await repriceForZone(deps, current, actor.userId ?? null);
  if (status === 'cancelled') {
    if (current.status !== 'pickup_requested' && current.status !== 'picked_up') {
      throw invalidTransition(
        `Parcel ${row.hawb} is ${current.status.replace(/_/g, ' ')}; only a pickup not yet received can be cancelled by webhook`,
        { package: row.id, hawb: row.hawb, status: current.status },
      );
    }
    current = await transition(db, now, current, 'cancelled', 'webhook_cancel', actor, { note: note ?? null }, { assigned_to_id: null });
  }
  return current;
}
