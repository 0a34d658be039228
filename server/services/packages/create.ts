import { constraintOf } from '../../db/engine/errors';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { company, pkg } from '../../db/schema/index';
import { badRequest, conflict, forbidden } from '../../errors';
import type { PackageCreate } from '../../../shared/schemas/package';
import { setParcelRequirements } from '../door/rules';
import { isStaff } from '../../../shared/roles';
import type { SessionUser } from '../auth/session';
import { chargeForPackage } from '../money/charges';
import { recordEvent, type Actor } from './lifecycle';
import { logPackageChange } from '../sync/changes';
import { enqueueCreated } from '../webhooks/events';
import type { PackageRow } from './shape';
import { setRecipientEmail } from '../recipients/recipient';
import { setCodAmount } from '../cod/parcel';
import { normaliseRecipientPhone } from '../recipients/phone';
import { applyResolution, locationInput, recordLocation, resolverFor } from '../geo/location';

/** Volumetric weight in kg from cm dimensions, with the common 5000 cm³/kg divisor. */
export const VOLUMETRIC_DIVISOR = 5000;
export function volumetricWeight(length?: number | null, width?: number | null, height?: number | null): number | null {
  if (!length || !width || !height) return null;
  return Math.round(((length * width * height) / VOLUMETRIC_DIVISOR) * 1000) / 1000;
}

export type PackageValues = Partial<typeof pkg.$inferInsert>;

/**
 * A sender never chooses its parcel's zone: the zone follows the address (geo/resolve.ts), and a zone
 * sent by a company (create, upload, its pickup webhook) is dropped. Staff may name one for an address
 * master data cannot place; the office's per-parcel override is packages/zoneOverride.ts.
 */
export function withoutSenderZone<T extends { zone?: number | null }>(input: T): T {
  const { zone: _zone, ...rest } = input;
  return rest as T;
}

/** The zone a caller's quote or parcel may name: staff's, never a sender's (see withoutSenderZone). */
export function senderZone(user: SessionUser, zone: number | null | undefined): number | undefined {
  return isStaff(user.role) ? (zone ?? undefined) : undefined;
}

/** Package fields an input maps to: the API names ids `zone`, the table `zone_id`. */
export function packageValues(input: Partial<PackageCreate>): PackageValues {
  const {
    company: companyId,
    zone: zoneId,
    suburb: suburbId,
    state: stateId,
    country: countryId,
    recipient_email: _email,
    proof_requirements: _proof,
    cod_amount_cents: _cod,
    ...rest
  } = input;
  const out: PackageValues = { ...rest };
  if (companyId !== undefined) out.company_id = companyId;
  if (zoneId !== undefined) out.zone_id = zoneId;
  if (suburbId !== undefined) out.suburb_id = suburbId;
  if (stateId !== undefined) out.state_id = stateId;
  if (countryId !== undefined) out.country_id = countryId;
  return out;
}

/**
 * The company a new parcel belongs to: a company user always sends for itself, drivers never
 * create, staff name any active company (or none).
 */
export function owningCompany(user: SessionUser, requested: number | null | undefined): number | null | undefined {
  if (user.role === 'driver') throw forbidden('Drivers cannot create packages');
  if (user.role !== 'company') return requested;
  if (requested != null && requested !== user.companyId) throw forbidden('A company can only create its own packages');
  return user.companyId;
}

/** A suspended or archived company sends nothing new. */
export async function checkCompanyActive(db: Db, companyId: number): Promise<void> {
  const co = await db.select().from(company).where(eq(company.id, companyId)).get();
  if (!co || co.deleted_at != null)
    throw badRequest(`Company ${companyId} does not exist`, [{ path: 'company', message: 'unknown company' }]);
  if (co.status !== 'active') throw forbidden(`Company ${co.name} is ${co.status}; it cannot send new packages`);
}

export async function assertHawbFree(db: Db, hawb: string, exceptId?: number): Promise<void> {
  const other = await db.select({ id: pkg.id }).from(pkg).where(eq(pkg.hawb, hawb)).get();
  if (other && other.id !== exceptId) throw conflict(`A package with hawb ${hawb} already exists`, { hawb });
}

export function foreignKeyError(err: unknown): never {
  const kind = constraintOf(err);
  if (kind === 'foreign_key') throw badRequest('The package refers to a suburb, state or country that does not exist');
  if (kind === 'unique') throw conflict('A package with this hawb already exists');
  throw err;
}

/** Creates a parcel in `created`; a company may only create for itself, and a suspended one not at all. */
/**
 * The one way a parcel is born, whoever asks for it (staff, a shipper, a company's pickup webhook):
 * located before pricing, so the charge reads the zone a quote for the same address would; then its
 * charge, first event, change-feed row and `created` webhook in the caller's unit.
 */
export async function insertNewPackage(
  deps: Deps,
  values: PackageValues,
  hawb: string,
  status: 'created' | 'pickup_requested',
  dims: Pick<PackageCreate, 'length' | 'width' | 'height' | 'recipient_email'>,
  actor: Actor,
  action: string,
): Promise<PackageRow> {
  const { db } = deps;
  const now = deps.clock.now();
  await normaliseRecipientPhone(db, values);
  const located = await resolverFor(deps).resolve(locationInput(values));
  applyResolution(values, located);
  await assertHawbFree(db, hawb);
  values.volume_weighted = volumetricWeight(dims.length, dims.width, dims.height);
  let row: PackageRow;
  try {
    row = await db
      .insert(pkg)
      .values({ ...values, hawb, status, created_at: now, updated_at: now })
      .returning()
      .get();
  } catch (err) {
    foreignKeyError(err);
  }
  await recordLocation(db, row.id, located, now);
  // Every way in (staff, shipper, API, pickup webhook) keeps the recipient's e-mail (issue 36).
  if (dims.recipient_email) await setRecipientEmail(db, now, row.id, dims.recipient_email);
  row = await chargeForPackage(deps, row.company_id, row, actor.userId);
  await recordEvent(db, now, { id: row.id, status }, action, actor, {}, status);
  await logPackageChange(db, row.id, { driverId: null, companyId: row.company_id }, now);
  await enqueueCreated(db, now, [row.id]);
  return row;
}

export async function createPackage(deps: Deps, user: SessionUser, input: PackageCreate, action = 'create'): Promise<PackageRow> {
  const { db } = deps;
  const values = packageValues(input);
  if (senderZone(user, values.zone_id) === undefined) delete values.zone_id;
  const companyId = owningCompany(user, input.company);
  if (companyId !== undefined) values.company_id = companyId;
  if (values.company_id != null) await checkCompanyActive(db, values.company_id);
  const row = await insertNewPackage(deps, values, input.hawb, 'created', input, { userId: user.id }, action);
  if (input.proof_requirements) await setParcelRequirements(db, deps.clock.now(), row.id, input.proof_requirements);
  if (input.cod_amount_cents != null) await setCodAmount(db, deps.clock.now(), row, input.cod_amount_cents);
  return row;
}
