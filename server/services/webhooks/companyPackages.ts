import { and, eq, sql } from 'drizzle-orm';
import type { PackageStatus } from '../../../shared/lifecycle';
import type { Db } from '../../db/client';
import { pkg } from '../../db/schema/index';
import { pageLinks, type ListOptions } from '../../resources/list';
import { packageJsonSelect, parsePackages } from '../packages/json';
import { packagesFor } from '../geo/senderView';

export interface KeyPackageFilter extends ListOptions {
  hawb?: string;
  status?: PackageStatus;
  updated_since?: string;
}

/** One page of a company's live packages for its own system (API key), newest first. */
export async function companyPackagePage(db: Db, companyId: number, q: KeyPackageFilter, url: string) {
  const where = and(
    eq(pkg.company_id, companyId),
    sql`${pkg.deleted_at} is null`,
    q.hawb ? eq(pkg.hawb, q.hawb) : undefined,
    q.status ? eq(pkg.status, q.status) : undefined,
    q.updated_since ? sql`${pkg.updated_at} >= ${Date.parse(q.updated_since)}` : undefined,
  );
  const total =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(pkg)
        .where(where)
        .get()
    )?.n ?? 0;
  const rows = await packageJsonSelect(db)
    .where(where)
    .orderBy(sql`${pkg.id} desc`)
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size)
    .all();
  return {
    count: total,
    ...pageLinks(url, q.page, q.page_size, total),
    results: await packagesFor(db, { role: 'company' }, parsePackages(rows)),
  };
}
