import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { DepotAddressCreate } from '../../../shared/schemas/org';
import type { Db } from '../../db/client';
import { company, companyDepotAddress } from '../../db/schema/index';
import type { Deps } from '../../deps';
import { badRequest, forbidden, notFound } from '../../errors';
import type { ResourceContext, Row } from '../../resources/crud';
import type { SessionUser } from '../auth/session';

/** A company login sees its own depot addresses; staff see every company's. */
export function depotScope(u: SessionUser): SQL | undefined {
  return u.companyId != null ? eq(companyDepotAddress.company_id, u.companyId) : undefined;
}

/** API input -> columns; a company login's depots are always its own. */
export function depotRow(input: Partial<z.output<typeof DepotAddressCreate>>, { user, existing }: ResourceContext): Row {
  const { company: companyId, ...rest } = input;
  const row: Row = { ...rest };
  if (user.companyId != null) {
    if (companyId != null && companyId !== user.companyId) throw notFound(`Company ${companyId} not found`);
    if (!existing) row.company_id = user.companyId;
  } else if (companyId !== undefined) row.company_id = companyId;
  return row;
}

/** A company login writes its own depots; staff need company.manage and name an existing company. */
export async function depotOwner(values: Row, { deps, user }: ResourceContext): Promise<void> {
  if (user.companyId == null && !user.permissions.has('company.manage')) throw forbidden('You need the "company.manage" permission');
  const id = values.company_id as number | undefined;
  if (id == null) throw badRequest('Name the company of this depot address', [{ path: 'company', message: 'required' }]);
  const co = await deps.db.select({ id: company.id }).from(company).where(eq(company.id, id)).get();
  if (!co || (user.companyId != null && id !== user.companyId)) throw notFound(`Company ${id} not found`);
}

/** Deletes a depot address the caller may write; outside scope is 404. */
export async function deleteDepot(deps: Deps, user: SessionUser, id: number): Promise<void> {
  const row = await deps.db
    .select()
    .from(companyDepotAddress)
    .where(and(depotScope(user), eq(companyDepotAddress.id, id)))
    .get();
  if (!row) throw notFound(`Depot address ${id} not found`);
  await depotOwner(row, { deps, user });
  await deps.db.delete(companyDepotAddress).where(eq(companyDepotAddress.id, id)).run();
}

/** A company has at most one default depot: marking one clears the flag on the others. */
export async function keepOneDefault(db: Db, ids: number[]): Promise<void> {
  const rows = ids.length
    ? await db
        .select()
        .from(companyDepotAddress)
        .where(and(inArray(companyDepotAddress.id, ids), eq(companyDepotAddress.is_default, true)))
        .all()
    : [];
  for (const r of rows) {
    await db
      .update(companyDepotAddress)
      .set({ is_default: false })
      .where(and(eq(companyDepotAddress.company_id, r.company_id), ne(companyDepotAddress.id, r.id)))
      .run();
  }
}
