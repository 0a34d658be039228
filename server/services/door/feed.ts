import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companyProofRules, pkg } from '../../db/schema/index';
import { RawJson } from '../../http/rawJson';
import { hasRequirements, NO_REQUIREMENTS, requirementWords, type DoorInfo, type ProofRequirements } from '../../../shared/door';
import { depotZones } from '../time/zones';
import { choiceOf } from './choice';
import { doorRows, effective } from './rules';

const ID_PREFIX = /^\{\s*"id"\s*:\s*(\d+)\s*[,}]/;

/**
 * The parcels of a sync page with what their door needs added as `door` (shared/door.ts DoorInfo):
 * the effective requirements, the code's salted hash, the recipient's choice and their time zone, so
 * the phone enforces the rule with no signal. Parcels needing nothing and with no choice are unchanged.
 */
export async function withDoor(db: Db, packages: RawJson[], timeZone: string): Promise<RawJson[]> {
  if (!packages.length) return packages;
  const ids = packages.map((p) => Number(ID_PREFIX.exec(p.text)?.[1]));
  const parcels = new Map(
    (await db.select({ id: pkg.id, company: pkg.company_id, warehouse: pkg.warehouse_id }).from(pkg).where(inArray(pkg.id, ids)).all()).map(
      (r) => [r.id, r],
    ),
  );
  const companies = [...new Set([...parcels.values()].map((p) => p.company).filter((c): c is number => c != null))];
  const rules = new Map<number, ProofRequirements>(
    companies.length
      ? (await db.select().from(companyProofRules).where(inArray(companyProofRules.company_id, companies)).all()).map((r) => [
          r.company_id,
          { ...NO_REQUIREMENTS, ...(JSON.parse(r.requirements) as ProofRequirements) },
        ])
      : [],
  );
  const doors = await doorRows(db, ids);
  if (!rules.size && !doors.size) return packages;
  const zones = await depotZones(
    { db, config: { timeZone } },
    [...parcels.values()].map((p) => p.warehouse),
  );
  return packages.map((p, i) => {
    const parcel = parcels.get(ids[i]!);
    if (!parcel) return p;
    const door = doors.get(parcel.id);
    const requirements = effective(rules.get(parcel.company ?? -1) ?? NO_REQUIREMENTS, door);
    const choice = choiceOf(door);
    if (!hasRequirements(requirements) && !choice) return p;
    const info: DoorInfo = {
      requirements,
      code:
        requirements.code && door?.code_hash && door.code_salt
          ? { hash: door.code_hash, salt: door.code_salt, iterations: door.code_iterations ?? 0 }
          : null,
      choice,
      time_zone: zones.of(parcel.warehouse),
    };
    return new RawJson(`${p.text.slice(0, -1)},"door":${JSON.stringify(info)}}`);
  });
}

/** For labels: each parcel's door requirements in words ("Signature · Age 18+ (ID) · One-time code"), by id; none when nothing is needed. */
export async function doorLabelWords(db: Db, parcels: { id: number; company: number | null }[]): Promise<Record<number, string>> {
  const ids = parcels.map((p) => p.id);
  if (!ids.length) return {};
  const companies = [...new Set(parcels.map((p) => p.company).filter((c): c is number => c != null))];
  const rules = new Map<number, ProofRequirements>(
    companies.length
      ? (await db.select().from(companyProofRules).where(inArray(companyProofRules.company_id, companies)).all()).map((r) => [
          r.company_id,
          { ...NO_REQUIREMENTS, ...(JSON.parse(r.requirements) as ProofRequirements) },
        ])
      : [],
  );
  const doors = await doorRows(db, ids);
  const out: Record<number, string> = {};
  for (const p of parcels) {
    const words = requirementWords(effective(rules.get(p.company ?? -1) ?? NO_REQUIREMENTS, doors.get(p.id)));
    if (words.length) out[p.id] = words.join(' · ');
  }
  return out;
}
