import { and, eq, inArray, isNull } from 'drizzle-orm';
import { formatMinor } from '../../../shared/money';
import { checkCollection, type Collection } from '../../../shared/cod';
import { localDay } from '../../../shared/time/zone';
import type { PackageCod } from '../../../shared/schemas/cod';
import type { Db } from '../../db/client';
import { company, driverCashTxn, packageCod, pkg } from '../../db/schema/index';
import { isFinal, type PackageStatus } from '../../../shared/lifecycle';
import type { Deps } from '../../deps';
import { badRequest, conflict } from '../../errors';
import { iso } from '../../clock';
import { audit } from '../audit/record';
import { append, ensureWallet, type Ledger } from '../money/wallets';
import { businessZone } from '../time/zones';
import { logPackageChange } from '../sync/changes';

/**
 * A parcel's cash on delivery (issue 34, docs/decisions-cod.md): the amount set on create or update,
 * the office's waiver, and the collection the driver's delivery records. What was collected is owed
 * to the shipper: a `cod_collected` credit of its wallet, in the delivery's own transaction.
 */

export type CodRow = typeof packageCod.$inferSelect;
interface Parcel {
  id: number;
  hawb: string;
  company_id: number | null;
  /** Whose phone shows the parcel: a waiver reaches it through the parcel's feed row. */
  assigned_to_id?: number | null;
}

export async function codRow(db: Db, packageId: number): Promise<CodRow | undefined> {
  return await db.select().from(packageCod).where(eq(packageCod.package_id, packageId)).get();
}

export function codJson(r: CodRow): PackageCod {
  return {
    package: r.package_id,
    amount_cents: r.amount_cents,
    currency: r.currency,
    waived_cents: r.waived_cents,
    waive_reason: r.waive_reason,
    required_cents: Math.max(0, r.amount_cents - r.waived_cents),
    collected_cents: r.collected_cents,
    method: r.method === 'cash' || r.method === 'card' ? r.method : null,
    collected_at: iso(r.collected_at),
    collected_by: r.collected_by,
  };
}

/**
 * Sets (or with null removes) the amount to collect. Only a business shipper's parcel carries one
 * (the amount is owed to it), in its currency; once collected it never changes.
 */
export async function setCodAmount(db: Db, now: number, row: Parcel, amount: number | null): Promise<void> {
  const existing = await codRow(db, row.id);
  if (existing?.collected_at != null)
    throw conflict(`The amount to collect on ${row.hawb} was collected already; it cannot change`, { package: row.id });
  if (amount == null) {
    if (existing)
      await db
        .delete(packageCod)
        .where(and(eq(packageCod.package_id, row.id), isNull(packageCod.collected_at)))
        .run();
    return;
  }
  if (row.company_id == null)
    throw badRequest("Cash on delivery needs the parcel's company: the amount collected is owed to it", [
      { path: 'cod_amount_cents', message: 'the parcel has no company' },
    ]);
  const co = await db.select({ currency: company.currency }).from(company).where(eq(company.id, row.company_id)).get();
  const currency = co?.currency ?? 'AUD';
  if (existing) {
    await db
      .update(packageCod)
      .set({ amount_cents: amount, company_id: row.company_id, currency, updated_at: now })
      .where(eq(packageCod.package_id, row.id))
      .run();
  } else {
    await db
      .insert(packageCod)
      .values({ package_id: row.id, company_id: row.company_id, amount_cents: amount, currency, created_at: now, updated_at: now })
      .run();
  }
}

/** Refuses (409, the one error shape) a delivery whose collection does not meet what is due; answers the row to record. */
export async function collectionDue(db: Db, row: Parcel, collection: Collection | undefined): Promise<CodRow | null> {
  const due = await codRow(db, row.id);
  const check = checkCollection(due ?? null, collection);
  if (!check.ok) {
    throw conflict(`Parcel ${row.hawb}: ${check.message}`, {
      reason: `cod_${check.reason}`,
      package: row.id,
      amount_cents: due?.amount_cents ?? 0,
      waived_cents: due?.waived_cents ?? 0,
      required_cents: check.required_cents,
      collected_cents: collection?.amount_cents ?? null,
    });
  }
  return due ?? null;
}

/**
 * Records what the driver collected, once, inside the delivery's transaction: the parcel's row, the
 * shipper's credit (owed to it) and, for cash, the driver's cash in hand for the local day.
 */
export async function recordCollection(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  due: CodRow,
  collection: Collection | undefined,
  driverId: number,
  at: number,
): Promise<void> {
  const { db } = deps;
  const now = deps.clock.now();
  const got = collection?.amount_cents ?? 0;
  const method = collection?.method ?? 'cash';
  const day = localDay(at, await businessZone(deps));
  const done = await db
    .update(packageCod)
    .set({ collected_cents: got, method, collected_by: driverId, collected_at: at, collected_day: day, updated_at: now })
    .where(and(eq(packageCod.package_id, due.package_id), isNull(packageCod.collected_at)))
    .returning()
    .get();
  if (!done || got === 0) return;
  const w = await ensureWallet(deps, due.company_id);
  await append(
    deps,
    w.id,
    {
      kind: 'cod_collected',
      amount_cents: got,
      package_id: due.package_id,
      reason: `Collected on delivery (${method})`,
      created_by: driverId,
    },
    false,
  );
  if (method === 'cash') {
    await db
      .insert(driverCashTxn)
      .values({
        driver_id: driverId,
        day,
        account: 'cash',
        kind: 'collected',
        amount_cents: got,
        currency: due.currency,
        package_id: due.package_id,
        created_by: driverId,
        created_at: now,
      })
      .run();
  }
}

/** The office excuses part or all of what is due (the recipient paid short, or nothing): audited. */
export async function waiveCod(
  deps: Ledger,
  actorId: number,
  row: Parcel,
  input: { reason: string; amount_cents?: number },
): Promise<CodRow> {
  const { db } = deps;
  const due = await codRow(db, row.id);
  if (!due) throw conflict(`Parcel ${row.hawb} has nothing to collect on delivery`, { package: row.id });
  if (due.collected_at != null) throw conflict(`Parcel ${row.hawb} was delivered with its collection already`, { package: row.id });
  // A parcel that will not be delivered (cancelled, returned, or delivered with nothing collected) has nothing left to
  // waive; one moved to history is final too. The property test found a cancelled parcel's amount being waived.
  const live = await db.select({ status: pkg.status }).from(pkg).where(eq(pkg.id, row.id)).get();
  if (!live || isFinal(live.status as PackageStatus))
    throw conflict(`Parcel ${row.hawb} is ${live ? live.status.replace(/_/g, ' ') : 'closed'}: there is nothing left to collect`, {
      package: row.id,
    });
  const open = due.amount_cents - due.waived_cents;
  const waive = input.amount_cents ?? open;
  if (waive > open) throw badRequest(`Only ${open} is still due on ${row.hawb}`, [{ path: 'amount_cents', message: `at most ${open}` }]);
  const now = deps.clock.now();
  const updated = await db
    .update(packageCod)
    .set({ waived_cents: due.waived_cents + waive, waived_by: actorId, waived_at: now, waive_reason: input.reason, updated_at: now })
    .where(and(eq(packageCod.package_id, row.id), eq(packageCod.waived_cents, due.waived_cents), isNull(packageCod.collected_at)))
    .returning()
    .get();
  if (!updated) throw conflict(`The collection on ${row.hawb} changed meanwhile; look again`, { package: row.id });
  await audit(db, now, actorId, 'package.cod_waive', `package:${row.id}`, {
    hawb: row.hawb,
    reason: input.reason,
    before: { waived_cents: due.waived_cents },
    after: { waived_cents: updated.waived_cents },
    amount_cents: due.amount_cents,
  });
  // The driver's phone asks for less from its next sync (offline it still holds the old amount, and the server is the judge).
  await logPackageChange(db, row.id, { driverId: row.assigned_to_id ?? null, companyId: row.company_id }, now);
  return updated;
}

/** What the driver must still collect, as a label or stop prints it ("AUD 50.00"); null when nothing. */
export function codDueText(r: Pick<CodRow, 'amount_cents' | 'waived_cents' | 'currency' | 'collected_at'>): string | null {
  const due = r.amount_cents - r.waived_cents;
  return r.collected_at == null && due > 0 ? `${r.currency} ${formatMinor(due, r.currency)}` : null;
}

/** Parcels with the amount their labels print (issue 34). */
export async function withCodDue<T extends { id: number }>(db: Db, parcels: T[]): Promise<(T & { cod_due: string | null })[]> {
  const ids = parcels.map((p) => p.id);
  const rows = new Map<number, CodRow>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const r of await db
      .select()
      .from(packageCod)
      .where(inArray(packageCod.package_id, ids.slice(i, i + 500)))
      .all())
      rows.set(r.package_id, r);
  }
  return parcels.map((p) => {
    const r = rows.get(p.id);
    return { ...p, cod_due: r ? codDueText(r) : null };
  });
}
