import { eq, getTableColumns, inArray, type SQL } from 'drizzle-orm';
import { alias, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { company, country, packageFailure, pkg, state, suburb, user, zone } from '../../db/schema/index';
import type { Package } from '../../../shared/schemas/package';
import type { PackageStatus } from '../../../shared/lifecycle';
import { iso } from '../../clock';

export type PackageRow = typeof pkg.$inferSelect;

const driver = alias(user, 'driver');

/** The joined read behind every Package answer (spec 2.1): one query for rows, one for failures. */
export function selectPackages(db: Db) {
  return db
    .select({
      p: pkg,
      company_name: company.name,
      zone_name: zone.name,
      suburb_name: suburb.name,
      state_name: state.name,
      country_name: country.name,
      driver_name: driver.name,
    })
    .from(pkg)
    .leftJoin(company, eq(company.id, pkg.company_id))
    .leftJoin(zone, eq(zone.id, pkg.zone_id))
    .leftJoin(suburb, eq(suburb.id, pkg.suburb_id))
    .leftJoin(state, eq(state.id, pkg.state_id))
    .leftJoin(country, eq(country.id, pkg.country_id))
    .leftJoin(driver, eq(driver.id, pkg.assigned_to_id));
}

const PKG_COLUMNS = Object.entries(getTableColumns(pkg)) as [keyof PackageRow, SQLiteColumn][];
const JOINED_NAMES = {
  company_name: company.name, zone_name: zone.name, suburb_name: suburb.name, state_name: state.name,
  country_name: country.name, driver_name: driver.name,
};
const JOINED_KEYS = Object.keys(JOINED_NAMES) as (keyof typeof JOINED_NAMES)[];
/** Flat, in a fixed order, so raw value arrays can be decoded by position. */
const FLAT_SELECTION = { ...Object.fromEntries(PKG_COLUMNS.map(([k, col]) => [`p__${k}`, col])), ...JOINED_NAMES };

export interface PackageQuery { orderBy?: (SQLiteColumn | SQL)[]; limit?: number; offset?: number }

/**
 * The same read as selectPackages(), decoded by hand from raw value arrays: drizzle's generic
 * row mapper costs more than the query itself on wide package rows (lists of 50-500 parcels).
 */
export function packageRows(db: Db, where: SQL | undefined, q: PackageQuery = {}): JoinedPackage[] {
  let query = packageSelect(db).where(where).$dynamic();
  if (q.orderBy?.length) query = query.orderBy(...q.orderBy);
  if (q.limit != null) query = query.limit(q.limit);
  if (q.offset) query = query.offset(q.offset);
  return decodePackageRows(query.values() as unknown[][]);
}

/** The flat select behind packageRows(), for callers that prepare a fixed-shape query once (`.prepare()`, then `.values()`). */
export function packageSelect(db: Db) {
  return db.select(FLAT_SELECTION).from(pkg)
    .leftJoin(company, eq(company.id, pkg.company_id))
    .leftJoin(zone, eq(zone.id, pkg.zone_id))
    .leftJoin(suburb, eq(suburb.id, pkg.suburb_id))
    .leftJoin(state, eq(state.id, pkg.state_id))
    .leftJoin(country, eq(country.id, pkg.country_id))
    .leftJoin(driver, eq(driver.id, pkg.assigned_to_id));
}

export function decodePackageRows(raw: unknown[][]): JoinedPackage[] {
  const n = PKG_COLUMNS.length;
  return raw.map((values) => {
    const p: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const [key, col] = PKG_COLUMNS[i]!;
      const v = values[i];
      p[key] = v === null || v === undefined ? null : col.mapFromDriverValue(v);
    }
    const out = { p: p as PackageRow } as JoinedPackage;
    for (let j = 0; j < JOINED_KEYS.length; j++) out[JOINED_KEYS[j]!] = (values[n + j] as string | null) ?? null;
    return out;
  });
}

export type JoinedPackage = {
  p: PackageRow; company_name: string | null; zone_name: string | null; suburb_name: string | null;
  state_name: string | null; country_name: string | null; driver_name: string | null;
};

export function shapePackages(db: Db, rows: JoinedPackage[]): Package[] {
  if (!rows.length) return [];
  const failures = new Map<number, Package['package_failed_delivery_status']>();
  const ids = rows.map((r) => r.p.id);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const f of db.select().from(packageFailure).where(inArray(packageFailure.package_id, chunk)).all()) {
      const list = failures.get(f.package_id) ?? [];
      list.push({ id: f.status_id, name: f.name, note: f.note, created_at: iso(f.created_at) ?? '' });
      failures.set(f.package_id, list);
    }
  }
  return rows.map((r) => toPackage(r, failures.get(r.p.id) ?? []));
}

export function toPackage(r: JoinedPackage, failures: Package['package_failed_delivery_status']): Package {
  const p = r.p;
  return {
    id: p.id, hawb: p.hawb, customer_code: p.customer_code, customer_name: p.customer_name,
    customer_address: p.customer_address, customer_phone: p.customer_phone, postcode: p.postcode,
    postcode_name: p.postcode_name, description_of_goods: p.description_of_goods, count: p.count, landed: p.landed,
    company: p.company_id, company_name: r.company_name, weight: p.weight, price: p.price,
    shipper_code: p.shipper_code, shipper_name: p.shipper_name, shipper_address: p.shipper_address,
    shipper_city: p.shipper_city, shipper_state: p.shipper_state, shipper_postcode: p.shipper_postcode,
    shipper_country: p.shipper_country, origin: p.origin, port: p.port, total_value: p.total_value,
    goods_currency: p.goods_currency, sac: p.sac, fr_reference: p.fr_reference, sub_master: p.sub_master,
    pkg_type: p.pkg_type, country_of_origin: p.country_of_origin, cyber_vendor_account: p.cyber_vendor_account,
    customs_code: p.customs_code, cyber_importer_account: p.cyber_importer_account, importer_abn: p.importer_abn,
    importer_cac: p.importer_cac, cyber_supplier_account: p.cyber_supplier_account,
    supplier_customs_code: p.supplier_customs_code, is_scanned: p.is_scanned, parcel_no: p.parcel_no,
    sequence_no: p.sequence_no, status: p.status as PackageStatus, zone: p.zone_id, zone_name: r.zone_name,
    suburb: p.suburb_id, suburb_name: r.suburb_name, state: p.state_id, state_name: r.state_name,
    country: p.country_id, country_name: r.country_name, height: p.height, length: p.length,
    volume_weighted: p.volume_weighted, assigned_to_id: p.assigned_to_id,
    assigned_to: p.assigned_to_id != null ? { id: p.assigned_to_id, name: r.driver_name ?? '' } : null,
    coordinates: p.latitude != null && p.longitude != null ? { latitude: p.latitude, longitude: p.longitude } : null,
    delivery_date: p.delivery_date, latitude: p.latitude, longitude: p.longitude,
    created_at: iso(p.created_at) ?? '', package_failed_delivery_status: failures,
  };
}

export function packagesByIds(db: Db, ids: number[]): Package[] {
  if (!ids.length) return [];
  const rows = packageRows(db, inArray(pkg.id, ids));
  const byId = new Map(shapePackages(db, rows).map((p) => [p.id, p]));
  return ids.map((id) => byId.get(id)).filter((p): p is Package => p !== undefined);
}
