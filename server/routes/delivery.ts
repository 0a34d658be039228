import { and, desc, eq, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { IdParams, ListQuery, pageOf } from '../../shared/schemas/common';
import {
  Attempt, AttemptCreateBody, AttemptQuery, DeliverAnswer, DeliverBody, FailAnswer, FailBody, FailPhotoBody, FileInfo, FlagResolveBody,
  ForceDeliverBody, ForceFailBody, PackageListQuery, pageOfPackages, Proof, RefusedDelivery, SlotParam, SlotUploadBody,
} from '../../shared/schemas/delivery';
import { Package } from '../../shared/schemas/package';
import { isStaff, type Role } from '../../shared/roles';
import { deliveryAttempt, deliveryRecord, pkg } from '../db/schema/index';
import type { Deps } from '../deps';
import { forbidden, notFound } from '../errors';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { rawArray, rawObject } from '../http/rawJson';
import { defineRoute } from '../http/route';
import { pageLinks } from '../resources/list';
import type { SessionUser } from '../services/auth/session';
import { checkUpload, dropIfUnused, recordFile, writeBytes } from '../services/files/store';
import { deliver, forceDeliver, resolveFlag } from '../services/packages/deliver';
import { attachFailurePhoto, attemptsWhere, failDelivery, type FailResult } from '../services/packages/fail';
import { dayStart } from '../services/packages/history';
import { findPackage } from '../services/packages/lifecycle';
import { fileInfo, proofOf, proofParcel, proofsOf, updateDeliveryText, writeSlots } from '../services/packages/proof';
import { scanContext } from '../services/packages/scan';
import { packageScope, visiblePackage } from '../services/packages/scope';
import { packageJson, packageJsonByIds } from '../services/packages/json';
import type { PackageRow } from '../services/packages/shape';
import { audit } from '../services/audit/record';
import { refreshParcelRouteEtas } from '../services/dispatch/eta';
import { refusedDeliveriesOf } from '../services/packages/refusedDelivery';
import { livePackage } from '../services/history/live';

const tags = ['Package Delivered'];
const ADMINS: readonly Role[] = ['super_admin', 'admin'];
const SUPERVISORS: readonly Role[] = ['super_admin', 'admin', 'supervisor', 'depot_manager'];
const SlotParams = z.object({ id: IdParams.shape.id, slot: SlotParam });
const one = (deps: Deps, id: number) => packageJson(deps.db, id);

/**
 * The parcel a driver names by id: their own, or one they held before a reassignment (the
 * services decide what that allows); anything else is outside their scope.
 */
async function parcelFor(deps: Deps, user: SessionUser, id: number): Promise<PackageRow> {
  const row = await findPackage(deps.db, id);
  if (row && row.deleted_at == null && user.role === 'driver') return row;
  // Gone to history: refused as a change to a final parcel would be (409), not as unknown.
  return row ? visiblePackage(user, row, id) : livePackage(deps.db, user, id);
}

async function failAnswer(deps: Deps, r: FailResult) {
  await refreshParcelRouteEtas(deps, r.row.id); // the rest of its route moves (issue 16)
  const msg = r.mustReturn
    ? `Parcel ${r.row.hawb} failed ${r.row.attempts} of ${r.maxAttempts} times; it must be returned to the depot`
    : `Attempt ${r.row.attempts} of ${r.maxAttempts} at ${r.row.hawb} recorded as failed`;
  return rawObject({ success: true, message: msg, attempts: r.row.attempts, max_attempts: r.maxAttempts, must_return: r.mustReturn, package: await one(deps, r.row.id) });
}

export function deliveryRoutes(app: App): void {
  defineRoute(app, {
    method: 'post', path: '/package-delivered/{id}/deliver/', tags, access: { roles: ['driver'] }, params: IdParams, body: DeliverBody,
    response: DeliverAnswer, catalogue: ops('mobile/Failed Delivery', 'Deliver Status Update'),
    summary: 'Driver delivers a parcel with its proof (up to five photos and a signature)',
    description: [
      'Photos and signature are file refs: a server file id or the client_id the device gave the upload. A file the server lacks answers 409 with details.missing_files and is not stored against the Idempotency-Key, so the device uploads and repeats the same request.',
      'An assigned (unscanned) or failed (reattempt) parcel passes through out_for_delivery first. A parcel that used its attempts must be returned (409).',
      'Delivered, returned-to-sender and cancelled are final: a later delivery is refused with 409 and the current state in details, and recorded.',
      'A delivery made offline after the parcel was reassigned is accepted and flagged for a supervisor.',
    ].join('\n\n'),
  }, async ({ deps, user, params, body, device }) => {
    const { row, flagged } = await deliver(deps, scanContext(user, body, device), await parcelFor(deps, user, params.id), body);
    await refreshParcelRouteEtas(deps, row.id);
    return rawObject({
      success: true, message: flagged ? `Parcel ${row.hawb} delivered and flagged for a supervisor: it had been reassigned` : `Parcel ${row.hawb} delivered`,
      flagged, package: await one(deps, row.id), proof: await proofOf(deps.db, row),
    });
  });

  defineRoute(app, {
    method: 'post', path: '/package-delivered/{id}/fail/', tags, access: { roles: ['driver'] }, params: IdParams, body: FailBody,
    response: FailAnswer, catalogue: ops('mobile/Package Delivered', 'Fail Delivery'),
    summary: 'Driver reports a failed attempt (reason, note, optional photo); counts toward the maximum',
    description: 'out_for_delivery -> failed, attempts + 1. `must_return: true` once the configured maximum (default 3) is reached: the parcel can then only be returned at the depot.',
  }, async ({ deps, user, params, body, device }) => failAnswer(deps, await failDelivery(deps, scanContext(user, body, device), await parcelFor(deps, user, params.id), body)));

  defineRoute(app, {
    method: 'post', path: '/package-delivered/{id}/force-deliver/', tags, access: { roles: ADMINS }, params: IdParams, body: ForceDeliverBody,
    response: DeliverAnswer, catalogue: ops('mobile/Package Delivered', 'Package Force Delivery'),
    summary: 'Admin marks a parcel delivered without scan or proof (recorded as forced; never over a final state)',
  }, async ({ deps, user, params, body, device }) => {
    const was = (await livePackage(deps.db, user, params.id));
    const row = await forceDeliver(deps, scanContext(user, body, device), was, body);
    await audit(deps.db, deps.clock.now(), user.id, 'package.force_deliver', `package:${row.id}`, { hawb: row.hawb, note: body.note, before: { status: was.status }, after: { status: row.status } });
    return rawObject({ success: true, message: `Parcel ${row.hawb} force-delivered`, flagged: row.flagged, package: await one(deps, row.id), proof: await proofOf(deps.db, row) });
  });

  defineRoute(app, {
    method: 'post', path: '/package-delivered/{id}/force-fail/', tags, access: { roles: ADMINS }, params: IdParams, body: ForceFailBody,
    response: FailAnswer, catalogue: ops('mobile/Package Delivered', 'Force Fully Fail Package'),
    summary: 'Admin marks a parcel failed from any open state (recorded as forced; counts as an attempt)',
  }, async ({ deps, user, params, body, device }) => {
    const was = (await livePackage(deps.db, user, params.id));
    const r = await failDelivery(deps, scanContext(user, body, device), was, body, { force: true, action: 'force_fail' });
    await audit(deps.db, deps.clock.now(), user.id, 'package.force_fail', `package:${r.row.id}`, { hawb: r.row.hawb, note: body.note, reason: body.failed_delivery_status, before: { status: was.status }, after: { status: r.row.status } });
    return failAnswer(deps, r);
  });

  defineRoute(app, {
    method: 'post', path: '/package-delivered/{id}/fail-photo/', tags, access: 'delivery.manage', params: IdParams, bodyKind: 'multipart',
    body: FailPhotoBody, status: 201, catalogue: ops('mobile/Package Delivered', 'Fail Delivery Upload Photo'),
    response: z.object({ success: z.boolean(), message: z.string(), file: FileInfo, client_id: z.string().nullable(), attached_to_attempt: z.number().int().nullable() }),
    summary: 'Upload the photo of a failed attempt (before the failure: name it in the fail body; after: it joins the latest attempt)',
    prepare: async ({ deps, body, user }) => {
      const upload = checkUpload(new Uint8Array(await body.file.arrayBuffer()), 'photo', body.sha256);
      return { upload, key: await writeBytes(deps, upload, user.id) };
    },
    settle: ({ key }, deps) => dropIfUnused(deps, key),
  }, async ({ deps, user, params, body, prepared }) => {
    const row = await parcelFor(deps, user, params.id);
    if (user.role === 'driver' && row.assigned_to_id !== user.id) throw notFound(`Package ${params.id} not found`);
    const file = await recordFile(deps.db, deps.clock.now(), user.id, prepared.key, prepared.upload, 'photo', body.client_id ?? null);
    const attempt = await attachFailurePhoto(deps, user, row, file.id);
    return {
      success: true, message: attempt != null ? `Photo added to attempt ${attempt} of ${row.hawb}` : 'Photo stored; name it in the fail request',
      file: fileInfo(file), client_id: file.client_id, attached_to_attempt: attempt,
    };
  });

  defineRoute(app, {
    method: 'post', path: '/package-delivered/{id}/photo/', tags, access: 'delivery.manage', params: IdParams, bodyKind: 'multipart',
    body: SlotUploadBody, status: 201, response: Proof, catalogue: ops('mobile/Package Delivered', 'Package Delivered Photo Upload'),
    summary: 'Upload one proof photo or the signature into its slot (multipart: file, slot, client_id?, sha256?)',
    description: 'Drivers fill the slots of parcels they hold; after delivery they may only fill empty slots (replacing is for staff).',
    prepare: async ({ deps, body, user }) => {
      const upload = checkUpload(new Uint8Array(await body.file.arrayBuffer()), body.slot === 'signature' ? 'signature' : 'photo', body.sha256);
      return { upload, key: await writeBytes(deps, upload, user.id) };
    },
    settle: ({ key }, deps) => dropIfUnused(deps, key),
  }, async ({ deps, user, params, body, prepared, device }) => {
    const row = await visiblePackageForProof(deps, user, params.id);
    const file = await recordFile(deps.db, deps.clock.now(), user.id, prepared.key, prepared.upload, body.slot === 'signature' ? 'signature' : 'photo', body.client_id ?? null);
    await writeSlots(deps, user, row, { [body.slot]: file.id }, device?.id);
    return proofOf(deps.db, row);
  });

  defineRoute(app, {
    method: 'delete', path: '/package-delivered/{id}/photo/{slot}/', tags, access: 'delivery.manage', params: SlotParams, response: Proof,
    catalogue: ops('mobile/Package Delivered', 'Photo Upload Delete'),
    summary: 'Remove one proof photo or the signature (slot: photo-one..photo-five, signature)',
  }, async ({ deps, user, params, device }) => {
    const row = await visiblePackageForProof(deps, user, params.id);
    await writeSlots(deps, user, row, { [params.slot]: null }, device?.id);
    return proofOf(deps.db, row);
  });

  defineRoute(app, {
    method: 'get', path: '/package-delivered/', tags, access: 'package.view', query: PackageListQuery, response: pageOf(Proof),
    catalogue: ops('mobile/Package Delivered', 'List'),
    summary: 'Delivered parcels with their proof, newest first (drivers: their deliveries; companies: their parcels)',
    description: 'Filters: driver (staff), date_from/date_to (UTC days of the delivery).',
  }, ({ deps, user, query, c }) => {
    const where = and(
      eq(pkg.status, 'delivered'), isNull(pkg.deleted_at),
      user.role === 'driver' ? eq(deliveryRecord.driver_id, user.id) : packageScope(user),
      query.driver != null && isStaff(user.role) ? eq(deliveryRecord.driver_id, query.driver) : undefined,
      query.date_from ? gte(pkg.delivered_at, dayStart(query.date_from)) : undefined,
      query.date_to ? lt(pkg.delivered_at, dayStart(query.date_to) + 86_400_000) : undefined,
    );
    return proofPage(deps, where, query, c.req.url);
  });

  defineRoute(app, {
    method: 'get', path: '/package-delivered/{id}/', tags, access: 'package.view', params: IdParams, response: Proof,
    catalogue: ops('mobile/Package Delivered', 'Retrieve'), summary: 'The proof of delivery of a parcel',
  }, async ({ deps, user, params }) => proofOf(deps.db, await visiblePackageForProof(deps, user, params.id, false)));

  defineRoute(app, {
    method: ['patch', 'put'], path: '/package-delivered/{id}/', tags, access: 'delivery.manage', params: IdParams,
    body: z.object({ recipient_name: z.string().trim().max(200).optional(), note: z.string().trim().max(1000).optional() }),
    response: Proof, catalogue: ops('mobile/Package Delivered', 'Update'),
    summary: 'Correct the recipient name or note of a delivery (the delivering driver or staff; recorded)',
  }, async ({ deps, user, params, body, device }) => {
    const row = await visiblePackageForProof(deps, user, params.id);
    await updateDeliveryText(deps, user, row, body, device?.id);
    return proofOf(deps.db, row);
  });

  defineRoute(app, {
    method: 'get', path: '/package-delivered/flagged/', tags, access: { roles: SUPERVISORS }, catalogue: [],
    query: ListQuery.pick({ page: true, page_size: true }), response: pageOfPackages,
    summary: 'Parcels flagged for a supervisor (e.g. delivered offline after a reassignment)',
  }, async ({ deps, query, c }) => {
    const where = and(eq(pkg.flagged, true), isNull(pkg.deleted_at));
    const count = (await deps.db.select({ n: sql<number>`count(*)` }).from(pkg).where(where).get())?.n ?? 0;
    const ids = (await deps.db.select({ id: pkg.id }).from(pkg).where(where).orderBy(desc(pkg.updated_at), desc(pkg.id))
      .limit(query.page_size).offset((query.page - 1) * query.page_size).all()).map((r) => r.id);
    return rawObject({ count, ...pageLinks(c.req.url, query.page, query.page_size, count), results: rawArray(await packageJsonByIds(deps.db, ids)) });
  });

  defineRoute(app, {
    method: 'get', path: '/package-delivered/{id}/refused/', tags, access: { roles: SUPERVISORS }, catalogue: [], params: IdParams,
    response: z.object({ results: z.array(RefusedDelivery) }),
    summary: 'Deliveries of a parcel the server refused (cancelled, final, out of attempts), with the proof the driver recorded',
  }, async ({ deps, user, params }) => ({ results: await refusedDeliveriesOf(deps.db, (await livePackage(deps.db, user, params.id)).id) }));

  defineRoute(app, {
    method: 'post', path: '/package-delivered/{id}/resolve-flag/', tags, access: { roles: SUPERVISORS }, catalogue: [], params: IdParams,
    body: FlagResolveBody, response: Package, summary: 'Clear the flag of a parcel once a supervisor has looked at it (recorded)',
  }, async ({ deps, user, params, body, device }) => {
    const row = await resolveFlag(deps, scanContext(user, body, device), (await livePackage(deps.db, user, params.id)));
    return one(deps, row.id);
  });

  defineRoute(app, {
    method: 'get', path: '/delivery-attempt/', tags: ['Delivery Attempt'], access: 'package.view', query: AttemptQuery, response: pageOf(Attempt),
    catalogue: ops('web/Delivery Attempt', 'Get'), summary: 'Failed delivery attempts, newest first (?package=, ?driver=)',
  }, async ({ deps, user, query, c }) => {
    const where = and(
      user.role === 'driver' ? eq(deliveryAttempt.driver_id, user.id) : packageScope(user),
      query.package != null ? eq(deliveryAttempt.package_id, query.package) : undefined,
      query.driver != null ? eq(deliveryAttempt.driver_id, query.driver) : undefined,
    );
    const count = (await deps.db.select({ n: sql<number>`count(*)` }).from(deliveryAttempt).innerJoin(pkg, eq(pkg.id, deliveryAttempt.package_id)).where(where).get())?.n ?? 0;
    return { count, ...pageLinks(c.req.url, query.page, query.page_size, count), results: await attemptsWhere(deps.db, where, query.page_size, (query.page - 1) * query.page_size) };
  });

  defineRoute(app, {
    method: 'post', path: '/delivery-attempt/', tags: ['Delivery Attempt'], access: 'delivery.manage', body: AttemptCreateBody, response: FailAnswer,
    status: 201, catalogue: ops('web/Delivery Attempt', 'Create'),
    summary: 'Record a failed attempt (a driver for their parcel, or staff for a driver who reported it); same rules as fail/',
  }, async ({ deps, user, body, device }) => failAnswer(deps, await failDelivery(deps, scanContext(user, body, device), await parcelFor(deps, user, body.package), body)));
}

/** Reading proof follows the parcel's scope; changing it is for drivers and staff. */
async function visiblePackageForProof(deps: Deps, user: SessionUser, id: number, writing = true): Promise<PackageRow> {
  if (writing && !isStaff(user.role) && user.role !== 'driver') throw forbidden('Only drivers and staff change delivery proof');
  return await proofParcel(deps.db, user, id);
}

export async function proofPage(deps: Deps, where: SQL | undefined, query: { page: number; page_size: number }, url: string) {
  const count = (await deps.db.select({ n: sql<number>`count(*)` }).from(pkg).leftJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id)).where(where).get())?.n ?? 0;
  const rows = await deps.db.select({ p: pkg }).from(pkg).leftJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id)).where(where)
    .orderBy(desc(pkg.delivered_at), desc(pkg.id)).limit(query.page_size).offset((query.page - 1) * query.page_size).all();
  return { count, ...pageLinks(url, query.page, query.page_size, count), results: await proofsOf(deps.db, rows.map((r) => r.p)) };
}
