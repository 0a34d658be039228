import { eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { DEFAULT_SERVICE_S } from '../../../shared/routing/eta';
import type { PackageWindow, PackageWindowBody } from '../../../shared/schemas/dispatch';
import type { Db } from '../../db/client';
import { company, companyServiceTime, packageWindow, pkg } from '../../db/schema/index';
import { badRequest, notFound } from '../../errors';
import { skillsOf } from './skills';

export interface WindowInfo {
  window_start: string | null;
  window_end: string | null;
  service_s: number;
  service_source: PackageWindow['service_source'];
  /** Skills the stop needs (issue 32). */
  skills: string[];
}

function checkOrder(start: string | null, end: string | null): void {
  if (start != null && end != null && end <= start) {
    throw badRequest('The window must end after it starts', [{ path: 'window_end', message: 'must be later than window_start' }]);
  }
}

/** Windows and times at the door of many parcels: their own, else their company's default, else the courier's. */
export async function windowsOf(db: Db, ids: number[]): Promise<Map<number, WindowInfo>> {
  const out = new Map<number, WindowInfo>();
  if (!ids.length) return out;
  const own = new Map<number, typeof packageWindow.$inferSelect>();
  const companyOf = new Map<number, number | null>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    for (const r of await db.select().from(packageWindow).where(inArray(packageWindow.package_id, part)).all()) own.set(r.package_id, r);
    for (const r of await db.select({ id: pkg.id, company: pkg.company_id }).from(pkg).where(inArray(pkg.id, part)).all())
      companyOf.set(r.id, r.company);
  }
  const companies = [...new Set([...companyOf.values()].filter((c): c is number => c != null))];
  const defaults = new Map(
    companies.length
      ? (await db.select().from(companyServiceTime).where(inArray(companyServiceTime.company_id, companies)).all()).map((r) => [
          r.company_id,
          r.service_s,
        ])
      : [],
  );
  for (const id of ids) {
    const w = own.get(id);
    const c = companyOf.get(id);
    const companyDefault = c != null ? defaults.get(c) : undefined;
    const [service_s, service_source]: [number, WindowInfo['service_source']] =
      w?.service_s != null
        ? [w.service_s, 'package']
        : companyDefault != null
          ? [companyDefault, 'company']
          : [DEFAULT_SERVICE_S, 'default'];
    out.set(id, {
      window_start: w?.window_start ?? null,
      window_end: w?.window_end ?? null,
      service_s,
      service_source,
      skills: skillsOf(w?.skills),
    });
  }
  return out;
}

export async function windowOf(db: Db, id: number): Promise<PackageWindow> {
  const w = (await windowsOf(db, [id])).get(id) as WindowInfo;
  return { package: id, ...w };
}

/** Sets (or clears, with null) a parcel's window and time at the door; fields left out keep their value. */
export async function setWindow(db: Db, now: number, packageId: number, body: z.output<typeof PackageWindowBody>): Promise<void> {
  const cur = await db.select().from(packageWindow).where(eq(packageWindow.package_id, packageId)).get();
  const next = {
    window_start: body.window_start !== undefined ? body.window_start : (cur?.window_start ?? null),
    window_end: body.window_end !== undefined ? body.window_end : (cur?.window_end ?? null),
    service_s: body.service_s !== undefined ? body.service_s : (cur?.service_s ?? null),
    skills: body.skills !== undefined ? (body.skills?.length ? JSON.stringify(body.skills) : null) : (cur?.skills ?? null),
  };
  checkOrder(next.window_start, next.window_end);
  if ((next.window_start == null) !== (next.window_end == null)) {
    throw badRequest('Give both window_start and window_end, or neither', [
      { path: next.window_start == null ? 'window_start' : 'window_end', message: 'required with the other end' },
    ]);
  }
  await db
    .insert(packageWindow)
    .values({ package_id: packageId, ...next, updated_at: now })
    .onConflictDoUpdate({ target: packageWindow.package_id, set: { ...next, updated_at: now } })
    .run();
}

export async function companyService(db: Db, companyId: number) {
  if (!(await db.select({ id: company.id }).from(company).where(eq(company.id, companyId)).get()))
    throw notFound(`Company ${companyId} not found`);
  const row = await db.select().from(companyServiceTime).where(eq(companyServiceTime.company_id, companyId)).get();
  return { company: companyId, service_s: row?.service_s ?? DEFAULT_SERVICE_S, is_default: row == null };
}

export async function setCompanyService(db: Db, now: number, companyId: number, serviceS: number) {
  await companyService(db, companyId);
  await db
    .insert(companyServiceTime)
    .values({ company_id: companyId, service_s: serviceS, updated_at: now })
    .onConflictDoUpdate({ target: companyServiceTime.company_id, set: { service_s: serviceS, updated_at: now } })
    .run();
  return companyService(db, companyId);
}
