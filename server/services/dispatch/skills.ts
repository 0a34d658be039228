import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { DriverSkills, DriverSkillsBody } from '../../../shared/schemas/dispatch';
import type { Db } from '../../db/client';
import { driverSkill, user } from '../../db/schema/index';
import { badRequest } from '../../errors';

/** A stored JSON list of skills (vans, drivers, stops); anything else reads as none. */
export function skillsOf(json: string | null | undefined): string[] {
  if (!json) return [];
  const v: unknown = JSON.parse(json);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Every live driver with what they can do (none stored = no skills), by name. */
export async function listDriverSkills(db: Db): Promise<DriverSkills[]> {
  const rows = await db
    .select({ id: user.id, name: user.name, skills: driverSkill.skills })
    .from(user)
    .leftJoin(driverSkill, eq(driverSkill.driver_id, user.id))
    .where(and(eq(user.role, 'driver'), isNull(user.deleted_at)))
    .orderBy(asc(user.name), asc(user.id))
    .all();
  return rows.map((r) => ({ driver: r.id, driver_name: r.name, skills: skillsOf(r.skills) }));
}

/** Sets what a driver can do; an empty list clears it. */
export async function setDriverSkills(
  db: Db,
  now: number,
  driverId: number,
  body: z.output<typeof DriverSkillsBody>,
): Promise<DriverSkills> {
  const driver = await db
    .select({ id: user.id, name: user.name, role: user.role })
    .from(user)
    .where(and(eq(user.id, driverId), isNull(user.deleted_at)))
    .get();
  if (!driver || driver.role !== 'driver')
    throw badRequest(`Employee ${driverId} is not a driver`, [{ path: 'driver', message: 'not a driver' }]);
  const skills = [...new Set(body.skills)];
  await db
    .insert(driverSkill)
    .values({ driver_id: driverId, skills: JSON.stringify(skills), updated_at: now })
    .onConflictDoUpdate({ target: driverSkill.driver_id, set: { skills: JSON.stringify(skills), updated_at: now } })
    .run();
  return { driver: driverId, driver_name: driver.name, skills };
}

/** Stored skills of the given drivers. */
export async function driverSkillsOf(db: Db, ids: number[]): Promise<Map<number, string[]>> {
  if (!ids.length) return new Map();
  const rows = await db.select().from(driverSkill).where(inArray(driverSkill.driver_id, ids)).all();
  return new Map(rows.map((r) => [r.driver_id, skillsOf(r.skills)]));
}
