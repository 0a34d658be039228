import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { companyProofRules, packageDoor, pkg } from '../../db/schema/index';
import { NO_REQUIREMENTS, raiseRequirements, type ProofRequirements } from '../../../shared/door';
import type { ParcelRequirementsSchema, ProofRequirementsSchema } from '../../../shared/schemas/door';
import { logPackageChange } from '../sync/changes';
import { isLive } from '../../db/schema/packages';

const parse = <T>(json: string | null | undefined): T | null => (json ? (JSON.parse(json) as T) : null);

/** A company's default requirements (none when it set none). */
export async function companyRequirements(db: Db, companyId: number | null): Promise<ProofRequirements> {
  if (companyId == null) return { ...NO_REQUIREMENTS };
  const row = await db
    .select({ r: companyProofRules.requirements })
    .from(companyProofRules)
    .where(eq(companyProofRules.company_id, companyId))
    .get();
  return { ...NO_REQUIREMENTS, ...parse<ProofRequirements>(row?.r) };
}

/**
 * Sets a company's default. Its parcels still in play and on a driver's phone go into the feed again,
 * so each phone learns the new rule at its next sync (a bounded set: today's live parcels).
 */
export async function saveCompanyRequirements(
  db: Db,
  now: number,
  companyId: number,
  req: z.output<typeof ProofRequirementsSchema>,
): Promise<ProofRequirements> {
  const json = JSON.stringify(req);
  await db
    .insert(companyProofRules)
    .values({ company_id: companyId, requirements: json, created_at: now, updated_at: now })
    .onConflictDoUpdate({ target: companyProofRules.company_id, set: { requirements: json, updated_at: now } })
    .run();
  const live = await db
    .select({ id: pkg.id, driver: pkg.assigned_to_id })
    .from(pkg)
    .where(and(eq(pkg.company_id, companyId), isNotNull(pkg.assigned_to_id), isLive(pkg.status)))
    .all();
  for (const p of live) await logPackageChange(db, p.id, { driverId: p.driver, companyId }, now);
  return req;
}

/** What a parcel adds to its company's default; null clears it. */
export async function setParcelRequirements(
  db: Db,
  now: number,
  packageId: number,
  raise: z.output<typeof ParcelRequirementsSchema> | null,
): Promise<void> {
  const json = raise ? JSON.stringify(raise) : null;
  await db
    .insert(packageDoor)
    .values({ package_id: packageId, requirements: json, created_at: now, updated_at: now })
    .onConflictDoUpdate({ target: packageDoor.package_id, set: { requirements: json, updated_at: now } })
    .run();
}

export type DoorRow = typeof packageDoor.$inferSelect;

export async function doorRow(db: Db, packageId: number): Promise<DoorRow | undefined> {
  return await db.select().from(packageDoor).where(eq(packageDoor.package_id, packageId)).get();
}

export async function doorRows(db: Db, ids: number[]): Promise<Map<number, DoorRow>> {
  if (!ids.length) return new Map();
  return new Map((await db.select().from(packageDoor).where(inArray(packageDoor.package_id, ids)).all()).map((r) => [r.package_id, r]));
}

/** A parcel's effective requirements: its company's default raised by its own. */
export function effective(companyDefault: ProofRequirements, door: DoorRow | undefined): ProofRequirements {
  return raiseRequirements(companyDefault, parse<Partial<ProofRequirements>>(door?.requirements));
}

/** `door`: the parcel's door row when the caller read it already (null: read, and there is none). */
export async function parcelRequirements(
  db: Db,
  row: { id: number; company_id: number | null },
  door?: DoorRow | null,
): Promise<ProofRequirements> {
  return effective(await companyRequirements(db, row.company_id), door === undefined ? await doorRow(db, row.id) : (door ?? undefined));
}
