import { z } from 'zod';
import { IdParams, ListQuery, pageOf } from '../../shared/schemas/common';
import {
  Attempt,
  AttemptCreateBody,
  AttemptQuery,
  DeliverAnswer,
  FailAnswer,
  FailPhotoBody,
  FileInfo,
  FlagResolveBody,
  ForceDeliverBody,
  ForceFailBody,
  PackageListQuery,
  Proof,
  RefusedDelivery,
  SlotParam,
  SlotUploadBody,
} from '../../shared/schemas/delivery';
import { Package } from '../../shared/schemas/package';
import type { Role } from '../../shared/roles';
import { DRIVER_ACTIONS } from '../../shared/driverActions';
import { DRIVER_ACTION_BODIES } from '../../shared/schemas/driverActions';
import type { Deps } from '../deps';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { rawObject } from '../http/rawJson';
import { defineRoute } from '../http/route';
import { checkUpload, recordFile, settleUpload, writeBytes } from '../services/files/store';
import { actionParcel, deliver, deliveryAnswer, flaggedPage, forceDeliver, resolveFlag } from '../services/packages/deliver';
import { attachFailurePhoto, attemptPage, failDelivery, failurePhotoParcel, forceFail, type FailResult } from '../services/packages/fail';
import { fileInfo, proofOf, proofParcel, updateDeliveryText, writableProofParcel, writeSlots } from '../services/packages/proof';
import { deliveredPage } from '../services/packages/proofList';
import { scanContext } from '../services/packages/scan';
import { packageJson } from '../services/packages/json';
import { refusedDeliveriesFor } from '../services/packages/refusedDelivery';
import { livePackage } from '../services/history/live';
import { businessZone } from '../services/time/zones';

const tags = ['Package Delivered'];
const ADMINS: readonly Role[] = ['super_admin', 'admin'];
const SUPERVISORS: readonly Role[] = ['super_admin', 'admin', 'supervisor', 'depot_manager'];
const SlotParams = z.object({ id: IdParams.shape.id, slot: SlotParam });
const one = (deps: Deps, id: number) => packageJson(deps.db, id);

async function failAnswer(deps: Deps, r: FailResult) {
  const msg = r.mustReturn
    ? `Parcel ${r.row.hawb} failed ${r.row.attempts} of ${r.maxAttempts} times; it must be returned to the depot`
    : `Attempt ${r.row.attempts} of ${r.maxAttempts} at ${r.row.hawb} recorded as failed`;
  return rawObject({
    success: true,
    message: msg,
    attempts: r.row.attempts,
    max_attempts: r.maxAttempts,
    must_return: r.mustReturn,
    package: await one(deps, r.row.id),
  });
}

export function deliveryRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: DRIVER_ACTIONS.deliver.route,
      tags,
      small: true,
      access: { roles: ['driver'] },
      params: IdParams,
      body: DRIVER_ACTION_BODIES.deliver,
      response: DeliverAnswer,
      catalogue: ops('mobile/Failed Delivery', 'Deliver Status Update'),
      summary: 'Driver delivers a parcel with its proof (up to five photos and a signature)',
      description: [
        'Photos and signature are file refs: a server file id or the client_id the device gave the upload. A file the server lacks answers 409 with details.missing_files and is not stored against the Idempotency-Key, so the device uploads and repeats the same request.',
        'An assigned (unscanned) or failed (reattempt) parcel passes through out_for_delivery first. A parcel that used its attempts must be returned (409).',
        'Delivered, returned-to-sender and cancelled are final: a later delivery is refused with 409 and the current state in details, and recorded.',
        'A delivery made offline after the parcel was reassigned is accepted and flagged for a supervisor.',
      ].join('\n\n'),
    },
    async ({ deps, user, params, body, device }) => {
      const done = await deliver(deps, scanContext(user, body, device), await actionParcel(deps.db, user, params.id), body);
      return deliveryAnswer(deps.db, done);
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: DRIVER_ACTIONS.fail.route,
      tags,
      small: true,
      access: { roles: ['driver'] },
      params: IdParams,
      body: DRIVER_ACTION_BODIES.fail,
      response: FailAnswer,
      catalogue: ops('mobile/Package Delivered', 'Fail Delivery'),
      summary: 'Driver reports a failed attempt (reason, note, optional photo); counts toward the maximum',
      description:
        'out_for_delivery -> failed, attempts + 1. `must_return: true` once the configured maximum (default 3) is reached: the parcel can then only be returned at the depot.',
    },
    async ({ deps, user, params, body, device }) =>
      failAnswer(deps, await failDelivery(deps, scanContext(user, body, device), await actionParcel(deps.db, user, params.id), body)),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package-delivered/{id}/force-deliver/',
      tags,
      access: { roles: ADMINS },
      params: IdParams,
      body: ForceDeliverBody,
      response: DeliverAnswer,
      catalogue: ops('mobile/Package Delivered', 'Package Force Delivery'),
      summary: 'Admin marks a parcel delivered without scan or proof (recorded as forced; never over a final state)',
    },
    async ({ deps, user, params, body, device }) => {
      const row = await forceDeliver(deps, scanContext(user, body, device), await livePackage(deps.db, user, params.id), body);
      return rawObject({
        success: true,
        message: `Parcel ${row.hawb} force-delivered`,
        flagged: row.flagged,
        package: await one(deps, row.id),
        proof: await proofOf(deps.db, row),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package-delivered/{id}/force-fail/',
      tags,
      access: { roles: ADMINS },
      params: IdParams,
      body: ForceFailBody,
      response: FailAnswer,
      catalogue: ops('mobile/Package Delivered', 'Force Fully Fail Package'),
      summary: 'Admin marks a parcel failed from any open state (recorded as forced; counts as an attempt)',
    },
    async ({ deps, user, params, body, device }) =>
      failAnswer(deps, await forceFail(deps, scanContext(user, body, device), await livePackage(deps.db, user, params.id), body)),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package-delivered/{id}/fail-photo/',
      tags,
      access: 'delivery.manage',
      params: IdParams,
      bodyKind: 'multipart',
      body: FailPhotoBody,
      status: 201,
      catalogue: ops('mobile/Package Delivered', 'Fail Delivery Upload Photo'),
      response: z.object({
        success: z.boolean(),
        message: z.string(),
        file: FileInfo,
        client_id: z.string().nullable(),
        attached_to_attempt: z.number().int().nullable(),
      }),
      summary: 'Upload the photo of a failed attempt (before the failure: name it in the fail body; after: it joins the latest attempt)',
      prepare: async ({ deps, body, user }) => {
        const upload = checkUpload(new Uint8Array(await body.file.arrayBuffer()), 'photo', body.sha256);
        return { upload, written: await writeBytes(deps, upload, user.id) };
      },
      settle: ({ written }, deps) => settleUpload(deps, written),
    },
    async ({ deps, user, params, body, prepared }) => {
      const row = await failurePhotoParcel(deps.db, user, params.id);
      const file = await recordFile(
        deps.db,
        deps.clock.now(),
        user.id,
        prepared.written.key,
        prepared.upload,
        'photo',
        body.client_id ?? null,
      );
      const attempt = await attachFailurePhoto(deps, user, row, file.id);
      return {
        success: true,
        message: attempt != null ? `Photo added to attempt ${attempt} of ${row.hawb}` : 'Photo stored; name it in the fail request',
        file: fileInfo(file),
        client_id: file.client_id,
        attached_to_attempt: attempt,
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package-delivered/{id}/photo/',
      tags,
      access: 'delivery.manage',
      params: IdParams,
      bodyKind: 'multipart',
      body: SlotUploadBody,
      status: 201,
      response: Proof,
      catalogue: ops('mobile/Package Delivered', 'Package Delivered Photo Upload'),
      summary: 'Upload one proof photo or the signature into its slot (multipart: file, slot, client_id?, sha256?)',
      description: 'Drivers fill the slots of parcels they hold; after delivery they may only fill empty slots (replacing is for staff).',
      prepare: async ({ deps, body, user }) => {
        const upload = checkUpload(
          new Uint8Array(await body.file.arrayBuffer()),
          body.slot === 'signature' ? 'signature' : 'photo',
          body.sha256,
        );
        return { upload, written: await writeBytes(deps, upload, user.id) };
      },
      settle: ({ written }, deps) => settleUpload(deps, written),
    },
    async ({ deps, user, params, body, prepared, device }) => {
      const row = await writableProofParcel(deps.db, user, params.id);
      const file = await recordFile(
        deps.db,
        deps.clock.now(),
        user.id,
        prepared.written.key,
        prepared.upload,
        body.slot === 'signature' ? 'signature' : 'photo',
        body.client_id ?? null,
      );
      await writeSlots(deps, user, row, { [body.slot]: file.id }, device?.id);
      return proofOf(deps.db, row);
    },
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/package-delivered/{id}/photo/{slot}/',
      tags,
      access: 'delivery.manage',
      params: SlotParams,
      response: Proof,
      catalogue: ops('mobile/Package Delivered', 'Photo Upload Delete'),
      summary: 'Remove one proof photo or the signature (slot: photo-one..photo-five, signature)',
    },
    async ({ deps, user, params, device }) => {
      const row = await writableProofParcel(deps.db, user, params.id);
      await writeSlots(deps, user, row, { [params.slot]: null }, device?.id);
      return proofOf(deps.db, row);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package-delivered/',
      tags,
      access: 'package.view',
      query: PackageListQuery,
      response: pageOf(Proof),
      catalogue: ops('mobile/Package Delivered', 'List'),
      summary: 'Delivered parcels with their proof, newest first (drivers: their deliveries; companies: their parcels)',
      description: "Filters: driver (staff), date_from/date_to (local days of the business's time zone, of the delivery).",
    },
    async ({ deps, user, query, c }) => deliveredPage(deps.db, deps.clock.now(), await businessZone(deps), user, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package-delivered/{id}/',
      tags,
      access: 'package.view',
      params: IdParams,
      response: Proof,
      catalogue: ops('mobile/Package Delivered', 'Retrieve'),
      summary: 'The proof of delivery of a parcel',
    },
    async ({ deps, user, params }) => proofOf(deps.db, await proofParcel(deps.db, user, params.id)),
  );

  defineRoute(
    app,
    {
      method: ['patch', 'put'],
      path: '/package-delivered/{id}/',
      tags,
      access: 'delivery.manage',
      params: IdParams,
      body: z.object({ recipient_name: z.string().trim().max(200).optional(), note: z.string().trim().max(1000).optional() }),
      response: Proof,
      catalogue: ops('mobile/Package Delivered', 'Update'),
      summary: 'Correct the recipient name or note of a delivery (the delivering driver or staff; recorded)',
    },
    async ({ deps, user, params, body, device }) => {
      const row = await writableProofParcel(deps.db, user, params.id);
      await updateDeliveryText(deps, user, row, body, device?.id);
      return proofOf(deps.db, row);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package-delivered/flagged/',
      tags,
      access: { roles: SUPERVISORS },
      catalogue: [],
      query: ListQuery.pick({ page: true, page_size: true }),
      response: pageOf(Package.extend({ flag_reason: z.string().nullable() })),
      summary: 'Parcels flagged for a supervisor (e.g. delivered offline after a reassignment), each with why (`flag_reason`)',
    },
    ({ deps, query, c }) => flaggedPage(deps.db, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package-delivered/{id}/refused/',
      tags,
      access: { roles: SUPERVISORS },
      catalogue: [],
      params: IdParams,
      response: z.object({ results: z.array(RefusedDelivery) }),
      summary: 'Deliveries of a parcel the server refused (cancelled, final, out of attempts), with the proof the driver recorded',
    },
    async ({ deps, user, params }) => ({ results: await refusedDeliveriesFor(deps.db, user, params.id) }),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package-delivered/{id}/resolve-flag/',
      tags,
      access: { roles: SUPERVISORS },
      catalogue: [],
      params: IdParams,
      body: FlagResolveBody,
      response: Package,
      summary: 'Clear the flag of a parcel once a supervisor has looked at it (recorded)',
    },
    async ({ deps, user, params, body, device }) => {
      const row = await resolveFlag(deps, scanContext(user, body, device), await livePackage(deps.db, user, params.id));
      return one(deps, row.id);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/delivery-attempt/',
      tags: ['Delivery Attempt'],
      access: 'package.view',
      query: AttemptQuery,
      response: pageOf(Attempt),
      catalogue: ops('web/Delivery Attempt', 'Get'),
      summary: 'Failed delivery attempts, newest first (?package=, ?driver=)',
    },
    ({ deps, user, query, c }) => attemptPage(deps.db, user, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/delivery-attempt/',
      tags: ['Delivery Attempt'],
      access: 'delivery.manage',
      body: AttemptCreateBody,
      response: FailAnswer,
      status: 201,
      catalogue: ops('web/Delivery Attempt', 'Create'),
      summary: 'Record a failed attempt (a driver for their parcel, or staff for a driver who reported it); same rules as fail/',
    },
    async ({ deps, user, body, device }) =>
      failAnswer(deps, await failDelivery(deps, scanContext(user, body, device), await actionParcel(deps.db, user, body.package), body)),
  );
}
