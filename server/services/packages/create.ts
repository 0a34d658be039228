import { eq } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { company, pkg, suburb, zone } from '../../db/schema/index';
import { badRequest, conflict, forbidden } from '../../errors';
import type { PackageCreate } from '../../../shared/schemas/package';
import type { SessionUser } from '../auth/session';
import { recordEvent } from './lifecycle';
import { logPackageChange } from '../sync/changes';
import type { PackageRow } from './shape';

/** Volumetric weight in kg from cm dimensions, with the common 5000 cm³/kg divisor. */
export const VOLUMETRIC_DIVISOR = 5000;
export function volumetricWeight(length?: number | null, width?: number | null, height?: number | null): number | null {
  if (!length || !width || !height) return null;
  return Math.round(((length * width * height) / VOLUMETRIC_DIVISOR) * 1000) / 1000;
}

/** Package fields an input maps to: the API names ids `zone`, the table `zone_id`. */
export function packageValues(input: Partial<PackageCreate>): Partial<typeof pkg.$inferInsert> {
  const { company: companyId, zone: zoneId, suburb: suburbId, state: stateId, country: countryId, ...rest } = input;
  const out: Partial<typeof pkg.$inferInsert> = { ...rest };
  if (companyId !== undefined) out.company_id = companyId;
  if (zoneId !== undefined) out.zone_id = zoneId;
  if (suburbId !== undefined) out.suburb_id = suburbId;
  if (stateId !== undefined) out.state_id = stateId;
  if (countryId !== undefined) out.country_id = countryId;
  return out;
}

/** Creates a parcel in `created`; a company may only create for itself, and a suspended one not at all. */
export function createPackage(deps: Deps, user: SessionUser, input: PackageCreate, action = 'create'): PackageRow {
  const { db } = deps;
  const now = deps.clock.now();
  const values = packageValues(input);
  if (user.role === 'company') {
    if (input.company != null && input.company !== user.companyId) throw forbidden('A company can only create its own packages');
    values.company_id = user.companyId;
  } else if (user.role === 'driver') {
    throw forbidden('Drivers cannot create packages');
  }
  if (values.company_id != null) {
    const co = db.select().from(company).where(eq(company.id, values.company_id)).get();
    if (!co || co.deleted_at != null) throw badRequest(`Company ${values.company_id} does not exist`, [{ path: 'company', message: 'unknown company' }]);
    if (co.status !== 'active') throw forbidden(`Company ${co.name} is ${co.status}; it cannot send new packages`);
  }
  if (values.suburb_id != null && values.zone_id == null) {
    values.zone_id = db.select({ z: suburb.zone_id }).from(suburb).where(eq(suburb.id, values.suburb_id)).get()?.z ?? null;
  }
  if (values.zone_id != null && !db.select({ id: zone.id }).from(zone).where(eq(zone.id, values.zone_id)).get()) {
    throw badRequest(`Zone ${values.zone_id} does not exist`, [{ path: 'zone', message: 'unknown zone' }]);
  }
  if (db.select({ id: pkg.id }).from(pkg).where(eq(pkg.hawb, input.hawb)).get()) {
    throw conflict(`A package with hawb ${input.hawb} already exists`, { hawb: input.hawb });
  }
  values.volume_weighted = volumetricWeight(input.length, input.width, input.height);
  let row: PackageRow;
  try {
    row = db.insert(pkg).values({ ...values, hawb: input.hawb, status: 'created', created_at: now, updated_at: now }).returning().get();
  } catch (err) {
    const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw badRequest('The package refers to a suburb, state or country that does not exist');
    throw err;
  }
  recordEvent(db, now, { id: row.id, status: 'created' }, action, { userId: user.id }, {}, 'created');
  logPackageChange(db, row.id, { driverId: null, companyId: row.company_id }, now);
  return row;
}
