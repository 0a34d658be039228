import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { geocodeJob, packageLocation } from '../../db/schema/index';
import { notFound } from '../../errors';
import type { SessionUser } from '../auth/session';

/** An upload whose parcels wait for the geocoder: progress is counted from their location rows. */
export async function openGeocodeJob(db: Db, user: SessionUser, now: number): Promise<number> {
  return (
    await db
      .insert(geocodeJob)
      .values({ created_by: user.id, company_id: user.role === 'company' ? user.companyId : null, total: 0, created_at: now })
      .returning({ id: geocodeJob.id })
      .get()
  ).id;
}

export interface GeocodeProgress {
  job: number;
  total: number;
  done: number;
  pending: number;
  located: Record<string, number>;
}

/** How far an upload's background geocoding has come; a company sees only its own uploads' jobs. */
export async function geocodeProgress(db: Db, user: SessionUser, jobId: number): Promise<GeocodeProgress> {
  const job = await db.select().from(geocodeJob).where(eq(geocodeJob.id, jobId)).get();
  if (!job || (user.role === 'company' && job.company_id !== user.companyId)) throw notFound(`Geocoding job ${jobId} not found`);
  const rows = await db
    .select({ precision: packageLocation.precision, pending: packageLocation.pending, n: sql<number>`count(*)` })
    .from(packageLocation)
    .where(and(eq(packageLocation.job_id, jobId)))
    .groupBy(packageLocation.precision, packageLocation.pending)
    .all();
  const located: Record<string, number> = {};
  let total = 0;
  let pending = 0;
  for (const r of rows) {
    total += r.n;
    if (r.pending) pending += r.n;
    else located[r.precision] = (located[r.precision] ?? 0) + r.n;
  }
  return { job: jobId, total, done: total - pending, pending, located };
}
