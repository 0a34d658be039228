import { z } from 'zod';
import { ActionFields } from '../../../shared/schemas/delivery';
import { IdParams, text } from '../../../shared/schemas/common';
import { Package } from '../../../shared/schemas/package';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { scanContext } from '../../services/packages/scan';
import { packagesByIds } from '../../services/packages/shape';
import { COLLECTION_FAIL } from '../../../shared/collection';
import { CollectionFailBody } from '../../../shared/schemas/collection';
import { failCollection } from '../../services/pickups/failCollection';
import { collectPickup, markCollected, pickupsAtPoint, scannedPoint, scanPickupPoint, visiblePoint } from '../../services/pickups/scan';

const tags = ['Pickup Point QR Scan'];
const qr = (...names: string[]) => ops('mobile/Pickup Point QR Scan', ...names);

const PointSummary = z.object({
  id: z.number().int(),
  person_name: z.string(),
  phone: z.string(),
  address: z.string(),
  additional_detail: z.string(),
  suburb: z.string(),
  state: z.string(),
  pincode: z.string(),
  company: z.number().int().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  is_active: z.boolean(),
});
const PointAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  pickup_point: PointSummary,
  pending: z.array(Package),
  collected: z.array(Package),
});
const QrCode = z.string().trim().min(1).max(200);
const QrBody = z.object({ code: QrCode, note: text(1000).optional(), ...ActionFields });
/** The point's QR code as the driver scanned it there: what opens a point's unassigned pickups to a driver. */
const PointCodeQuery = z.object({ code: QrCode.optional() });
const PackageScanBody = z.object({
  barcode: z.string().trim().min(1).max(128),
  /** The pickup point the driver scanned first; a parcel waiting at another one is refused. */
  pickup_point: z.number().int().positive().optional(),
  /** That point's QR code as scanned: required to collect a parcel nobody is assigned to. */
  code: QrCode.optional(),
  note: text(1000).optional(),
  ...ActionFields,
});
const StatusChangeBody = z.object({
  packages: z.array(z.number().int().positive()).min(1).max(500),
  status: z.literal('picked_up'),
  pickup_point: z.number().int().positive().optional(),
  /** The pickup point's QR code as scanned there: required for parcels nobody is assigned to. */
  code: QrCode.optional(),
  note: text(1000).optional(),
  ...ActionFields,
});

const pointOf = (p: Awaited<ReturnType<typeof visiblePoint>>['point']) => ({
  id: p.id,
  person_name: p.person_name,
  phone: p.phone,
  address: p.address,
  additional_detail: p.additional_detail,
  suburb: p.suburb,
  state: p.state,
  pincode: p.pincode,
  company: p.company_id,
  latitude: p.latitude,
  longitude: p.longitude,
  is_active: p.is_active,
});

export function pickupScanRoutes(app: App): void {
  const at = async (
    deps: Parameters<typeof packagesByIds>[0],
    user: Parameters<typeof pickupsAtPoint>[1],
    access: Awaited<ReturnType<typeof visiblePoint>>,
    message: string,
  ) => {
    const rows = await pickupsAtPoint(deps, user, access.point.id, access.scanned);
    const ids = (s: string) => rows.filter((r) => r.status === s).map((r) => r.id);
    return {
      success: true,
      message,
      pickup_point: pointOf(access.point),
      pending: await packagesByIds(deps, ids('pickup_requested')),
      collected: await packagesByIds(deps, ids('picked_up')),
    };
  };

  defineRoute(
    app,
    {
      method: 'post',
      path: '/pickup-point-scan/qr-scan/',
      tags,
      access: { roles: ['driver'] },
      body: QrBody,
      response: PointAnswer,
      catalogue: qr('Pickup Point QR Scan'),
      summary: "Driver scans a pickup point's QR code",
      description:
        'The code printed by pickup-point/{id}/qr-code/. Answers the point and its parcels for this driver: `pending` (waiting there, assigned to this driver or to nobody) and `collected` (picked up by this driver). A code this server did not print is a 404, recorded for staff.',
    },
    async ({ deps, user, body, device }) => {
      const point = await scanPickupPoint(deps, scanContext(user, body, device), body.code);
      return await at(deps.db, user, { point, scanned: true }, `Pickup point ${point.person_name}`);
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/pickup-point-scan/package-scan/',
      tags,
      access: { roles: ['driver'] },
      body: PackageScanBody,
      response: z.object({ success: z.boolean(), message: z.string(), already_scanned: z.boolean(), package: Package }),
      catalogue: qr('Pickup Point Package Scan'),
      summary: 'Driver scans a parcel at the pickup point: picked up',
      description:
        "pickup_requested -> picked_up; the parcel becomes this driver's. A parcel nobody is assigned to is collected only with its point's QR `code` as scanned there (else 409). A parcel meant for another driver or waiting at another pickup point is 409, an unknown code 404 (all recorded). A repeat scan answers 200 with already_scanned. Works offline through the outbox (Idempotency-Key).",
    },
    async ({ deps, user, body, device }) => {
      const ctx = scanContext(user, body, device);
      const { row, already } = await collectPickup(
        deps,
        ctx,
        body.barcode,
        body.pickup_point,
        await scannedPoint(deps, ctx, body.code, body.pickup_point),
      );
      return {
        success: true,
        message: already ? `Parcel ${row.hawb} is already picked up` : `Parcel ${row.hawb} picked up`,
        already_scanned: already,
        package: (await packagesByIds(deps.db, [row.id]))[0],
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/pickup-point-scan/{id}/packages/',
      tags,
      access: 'pickup_point.view',
      params: IdParams,
      query: PointCodeQuery,
      response: PointAnswer,
      catalogue: qr('Package by Pickup Point'),
      summary: 'Pickup parcels at a pickup point',
      description:
        "A driver with the point's QR code as scanned there (`?code=`) sees what waits there for them or for nobody, and what they collected; " +
        'without it only what is assigned to them, and a point where nothing is assigned to them is 404. A company sees its own parcels at its own points; staff everything. ' +
        "Another company's point is 404.",
    },
    async ({ deps, user, params, query, device }) => {
      const access = await visiblePoint(deps, scanContext(user, {}, device), params.id, query.code);
      return await at(deps.db, user, access, `Pickup point ${access.point.person_name}`);
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: COLLECTION_FAIL.route,
      tags,
      access: { roles: ['driver'] },
      params: IdParams,
      body: CollectionFailBody,
      response: z.object({ success: z.boolean(), message: z.string(), package: Package }),
      catalogue: qr('Status Change'),
      summary: 'Driver could not collect a parcel at the pickup point',
      description:
        "Issue 32: the parcel was not there, the shipper was closed... (`reason`, shared/collection.ts). The parcel stays `pickup_requested` with nobody on it and leaves the driver's route, its collection and its delivery both (the route's ETAs move); the attempt is on its history as `pickup_failed`, and the office plans it again. " +
        'Only the driver it waits for: one the office gave to someone else (or took back) is 409 `reassigned`, one collected already 409 `not_allowed`, a cancelled one 409 `final` (all recorded); one never theirs is 404. Works offline through the outbox (Idempotency-Key).',
    },
    async ({ deps, user, params, body, device }) => {
      const row = await failCollection(deps, scanContext(user, body, device), params.id, body);
      return {
        success: true,
        message: `Collection of parcel ${row.hawb} recorded as not made`,
        package: (await packagesByIds(deps.db, [row.id]))[0],
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/pickup-point-scan/status-change/',
      tags,
      access: { roles: ['driver'] },
      body: StatusChangeBody,
      response: z.object({ success: z.boolean(), message: z.string(), count: z.number().int(), packages: z.array(Package) }),
      catalogue: qr('Status Change'),
      summary: 'Driver marks parcels picked up without scanning them',
      description:
        'For a label that will not scan: the same rules as the scan, all or nothing. A parcel may be named if it is assigned to this driver, or waits unassigned at the point whose QR `code` the driver scanned (sent with the call). Others are 404.',
    },
    async ({ deps, user, body, device }) => {
      const ctx = scanContext(user, body, device);
      const done = await markCollected(
        deps,
        ctx,
        body.packages,
        body.pickup_point,
        await scannedPoint(deps, ctx, body.code, body.pickup_point),
      );
      return {
        success: true,
        message: `${done.length} parcel(s) picked up`,
        count: done.length,
        packages: await packagesByIds(
          deps.db,
          done.map((d) => d.row.id),
        ),
      };
    },
  );
}
