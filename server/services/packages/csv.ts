import { and, asc, gt, type SQL } from 'drizzle-orm';
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../../db/client';
import { pkg } from '../../db/schema/index';
import { csvSafe } from '../../../shared/csvSafe';
import type { Package } from '../../../shared/schemas/package';
import { packageJsonSelect, parsePackages } from './json';
import { packagesFor } from '../geo/senderView';
import type { SessionUser } from '../auth/session';
import { historyJsonAfter } from '../history/read';

/** Spec 2.1 fields, flat: nested objects become their useful scalar. */
export const CSV_COLUMNS = [
  'id',
  'hawb',
  'status',
  'customer_code',
  'customer_name',
  'customer_address',
  'customer_phone',
  'postcode',
  'postcode_name',
  'description_of_goods',
  'count',
  'landed',
  'company',
  'company_name',
  'weight',
  'price',
  'shipper_code',
  'shipper_name',
  'shipper_address',
  'shipper_city',
  'shipper_state',
  'shipper_postcode',
  'shipper_country',
  'origin',
  'port',
  'total_value',
  'goods_currency',
  'sac',
  'fr_reference',
  'sub_master',
  'pkg_type',
  'country_of_origin',
  'cyber_vendor_account',
  'customs_code',
  'cyber_importer_account',
  'importer_abn',
  'importer_cac',
  'cyber_supplier_account',
  'supplier_customs_code',
  'is_scanned',
  'parcel_no',
  'sequence_no',
  'zone',
  'zone_name',
  'suburb',
  'suburb_name',
  'state',
  'state_name',
  'country',
  'country_name',
  'height',
  'length',
  'volume_weighted',
  'assigned_to_id',
  'assigned_to',
  'delivery_date',
  'latitude',
  'longitude',
  'created_at',
  'package_failed_delivery_status',
] as const satisfies readonly (keyof Package)[];

export const CSV_PAGE = 1000;

function cell(p: Package, column: (typeof CSV_COLUMNS)[number]): string {
  if (column === 'assigned_to') return csvSafe(p.assigned_to?.name);
  if (column === 'package_failed_delivery_status') return csvSafe(p.package_failed_delivery_status.map((f) => f.name).join('; '));
  return csvSafe(p[column]);
}

/**
 * The packages under `where` as CSV, read a page at a time by id (keyset paging) while the client
 * downloads, so memory stays flat however many rows match. Every cell is formula-safe.
 */
export function packagesCsvStream(db: Db, viewer: Pick<SessionUser, 'role'>, where: SQL | undefined): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let lastId = 0;
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          // A BOM so Excel opens UTF-8 names correctly.
          controller.enqueue(encoder.encode(`\uFEFF${stringify([[...CSV_COLUMNS]])}`));
          return;
        }
        // Hot parcels and those moved to history (the same filter reads both), merged in id order.
        const hot = await packageJsonSelect(db)
          .where(and(where, gt(pkg.id, lastId)))
          .orderBy(asc(pkg.id))
          .limit(CSV_PAGE)
          .all();
        const cold = await historyJsonAfter(db, where, lastId, CSV_PAGE);
        const rows = [...hot, ...cold].sort((a, b) => a.id - b.id).slice(0, CSV_PAGE);
        if (!rows.length) {
          controller.close();
          return;
        }
        lastId = rows[rows.length - 1].id;
        const records = (await packagesFor(db, viewer, parsePackages(rows))).map((p) => CSV_COLUMNS.map((c) => cell(p, c)));
        controller.enqueue(encoder.encode(stringify(records)));
        if (hot.length < CSV_PAGE && cold.length < CSV_PAGE && rows.length === hot.length + cold.length) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
