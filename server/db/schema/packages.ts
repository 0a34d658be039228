import { sql, type SQLWrapper } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { FINAL_STATUSES } from '../../../shared/lifecycle';
import { archivable, id, timestamps } from './columns';
import { company, user } from './people';
import { country, state, suburb, zone } from './geo';

const t = (name: string) => text(name);

/**
 * The columns of a parcel, declared once: the hot `package` table and its cold copy `package_history`
 * (schema/history.ts) have the same ones, so a filter written over `pkg` reads either.
 */
export const packageColumns = () => ({
  id: id(),
  hawb: text('hawb').notNull(),
  customer_code: t('customer_code'),
  customer_name: t('customer_name'),
  customer_address: t('customer_address'),
  customer_phone: t('customer_phone'),
  postcode: integer('postcode'),
  postcode_name: t('postcode_name'),
  description_of_goods: t('description_of_goods'),
  count: integer('count'),
  landed: integer('landed', { mode: 'boolean' }).notNull().default(false),
  company_id: integer('company_id').references(() => company.id),
  weight: real('weight'),
  price: real('price'),
  shipper_code: t('shipper_code'),
  shipper_name: t('shipper_name'),
  shipper_address: t('shipper_address'),
  shipper_city: t('shipper_city'),
  shipper_state: t('shipper_state'),
  shipper_postcode: t('shipper_postcode'),
  shipper_country: t('shipper_country'),
  origin: t('origin'),
  port: t('port'),
  total_value: t('total_value'),
  goods_currency: t('goods_currency'),
  sac: integer('sac', { mode: 'boolean' }).notNull().default(false),
  fr_reference: t('fr_reference'),
  sub_master: t('sub_master'),
  pkg_type: t('pkg_type'),
  country_of_origin: t('country_of_origin'),
  cyber_vendor_account: t('cyber_vendor_account'),
  customs_code: t('customs_code'),
  cyber_importer_account: t('cyber_importer_account'),
  importer_abn: t('importer_abn'),
  importer_cac: t('importer_cac'),
  cyber_supplier_account: t('cyber_supplier_account'),
  supplier_customs_code: t('supplier_customs_code'),
  is_scanned: integer('is_scanned', { mode: 'boolean' }).notNull().default(false),
  parcel_no: integer('parcel_no'),
  sequence_no: integer('sequence_no'),
  status: text('status').notNull().default('created'),
  zone_id: integer('zone_id').references(() => zone.id),
  suburb_id: integer('suburb_id').references(() => suburb.id),
  state_id: integer('state_id').references(() => state.id),
  country_id: integer('country_id').references(() => country.id),
  height: real('height'),
  length: real('length'),
  width: real('width'),
  volume_weighted: real('volume_weighted'),
  assigned_to_id: integer('assigned_to_id').references(() => user.id),
  route_id: integer('route_id'),
  pickup_point_id: integer('pickup_point_id'),
  warehouse_id: integer('warehouse_id'),
  delivery_date: text('delivery_date'),
  latitude: real('latitude'),
  longitude: real('longitude'),
  attempts: integer('attempts').notNull().default(0),
  /** Set when an offline delivery arrived after the parcel had been reassigned: a supervisor looks. */
  flagged: integer('flagged', { mode: 'boolean' }).notNull().default(false),
  flag_reason: text('flag_reason'),
  delivered_at: integer('delivered_at'),
  ...archivable(),
  ...timestamps(),
});

/**
 * "Still in play" (not delivered, returned or cancelled) with the statuses written out: a query
 * carrying this very term can use the partial index below, which a bound parameter list could not.
 */
export const FINAL_STATUS_LIST = FINAL_STATUSES.map((s) => `'${s}'`).join(', ');
export const isLive = (status: SQLWrapper) => sql`${status} not in (${sql.raw(FINAL_STATUS_LIST)})`;

export const pkg = sqliteTable('package', packageColumns(), (tb) => [
  uniqueIndex('package_hawb_uq').on(tb.hawb),
  index('package_assigned_status_idx').on(tb.assigned_to_id, tb.status),
  index('package_company_idx').on(tb.company_id, tb.created_at),
  index('package_status_idx').on(tb.status),
  // The staff list filtered by zone and status (and its count) reads only this index; its prefix serves zone lookups.
  index('package_zone_status_idx').on(tb.zone_id, tb.status, tb.deleted_at),
  index('package_route_idx').on(tb.route_id),
  // A driver's remaining and scanned lists in their order: only parcels in play, so their cost does
  // not grow with the weeks of delivered parcels a driver keeps until they move to history. The
  // lists' other conditions read the trailing columns, so SQLite never reads the parcel's row
  // (its answer is stored: server/db/engine/sqliteAnswers.ts).
  index('package_live_driver_idx')
    .on(tb.assigned_to_id, tb.is_scanned, tb.sequence_no, tb.id, tb.status, tb.attempts, tb.deleted_at)
    .where(isLive(tb.status)),
]);

/** Every transition and scan of a parcel (DESIGN.md section 7): who, device time, server time, where. */
export const packageEvent = sqliteTable(
  'package_event',
  {
    id: id(),
    package_id: integer('package_id')
      .notNull()
      .references(() => pkg.id),
    action: text('action').notNull(),
    from_status: text('from_status'),
    to_status: text('to_status'),
    actor_id: integer('actor_id').references(() => user.id),
    device_id: text('device_id'),
    occurred_at: integer('occurred_at').notNull(),
    received_at: integer('received_at').notNull(),
    latitude: real('latitude'),
    longitude: real('longitude'),
    note: text('note'),
    data: text('data'),
  },
  (tb) => [index('package_event_pkg_idx').on(tb.package_id, tb.id), index('package_event_actor_idx').on(tb.actor_id, tb.received_at)],
);

/** Failed-delivery reasons recorded against a package (spec 2.1 `package_failed_delivery_status`). */
export const packageFailure = sqliteTable(
  'package_failure',
  {
    id: id(),
    package_id: integer('package_id')
      .notNull()
      .references(() => pkg.id),
    status_id: integer('status_id').notNull(),
    name: text('name').notNull(),
    note: text('note'),
    created_at: integer('created_at').notNull(),
  },
  (tb) => [index('package_failure_pkg_idx').on(tb.package_id)],
);
