import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { company, country, pkg, state, suburb, user, zone } from '../../db/schema/index';
import type { Package } from '../../../shared/schemas/package';
import { rawArray } from '../../http/rawJson';
import { packageJsonByIds } from './json';

export type PackageRow = typeof pkg.$inferSelect;

const driver = alias(user, 'driver');

/**
 * The joined package read some reports and exports filter and page with; the answer itself is
 * shaped from the ids by shapePackages(). New code should page packageJsonWhere() instead.
 */
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

/** Packages of rows read by selectPackages(), in their order; one shaping (packages/json.ts) serves every answer. */
export function shapePackages(db: Db, rows: readonly { p: Pick<PackageRow, 'id'> }[]): Package[] {
  return packagesByIds(db, rows.map((r) => r.p.id));
}

/** The packages of `ids` as objects, in that order; ids with no package are skipped. */
export function packagesByIds(db: Db, ids: readonly number[]): Package[] {
  if (!ids.length) return [];
  return JSON.parse(rawArray(packageJsonByIds(db, ids)).text) as Package[];
}
