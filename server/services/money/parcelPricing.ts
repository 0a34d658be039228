import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { toMajor } from '../../../shared/money';
import type { Db } from '../../db/client';
import { companyTerms, packagePricing, pkg, walletTxn } from '../../db/schema/index';
import { ApiError, conflict } from '../../errors';
import type { PackageRow } from '../packages/shape';
import { priceOfPackage } from './pricing';
import { append, ensureWallet, type Ledger, type UnitLedger } from './wallets';
import { atomically } from '../../db/atomically';
import { iso } from '../../clock';
import type { SessionUser } from '../auth/session';
import { companyAsked } from './access';
import { companyNames } from './shape';

/**
 * Parcel pricing as one rule (issue 18): a company's parcel is either charged exactly the price its
 * current weight, dimensions and zone imply under the card that priced it, or it is `unpriced` and
 * listed for the office. Every path (create, upload, edit before receipt, weight adjustment after
 * receipt, rate lines added later, cancel) settles the ledger through `settleTo`, which posts only
 * the difference between what the parcel was charged so far and what it should cost now: repeating a
 * step posts nothing, so nothing is ever charged twice.
 */

export type UnpricedPolicy = 'accept' | 'refuse';
export type UnpricedReason = 'no_rate_line' | 'insufficient_balance';
export const PACKAGE_MONEY_KINDS = ['charge', 'reprice', 'refund'] as const;

export async function companyPolicy(db: Db, companyId: number): Promise<{ unpriced_policy: UnpricedPolicy; payment_terms_days: number }> {
  const row = await db.select().from(companyTerms).where(eq(companyTerms.company_id, companyId)).get();
  return { unpriced_policy: row?.unpriced_policy === 'refuse' ? 'refuse' : 'accept', payment_terms_days: row?.payment_terms_days ?? 14 };
}

export async function setCompanyTerms(
  db: Db,
  now: number,
  companyId: number,
  patch: { unpriced_policy?: UnpricedPolicy; payment_terms_days?: number },
) {
  const current = await companyPolicy(db, companyId);
  const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
  await db
    .insert(companyTerms)
    .values({ company_id: companyId, ...next, updated_at: now })
    .onConflictDoUpdate({ target: companyTerms.company_id, set: { ...next, updated_at: now } })
    .run();
  return { before: current, after: next };
}

/** What the company has paid for the parcel so far, in cents (charges and re-prices less refunds). */
export async function netCharged(db: Db, packageId: number): Promise<number> {
  const sum =
    (
      await db
        .select({ s: sql<number>`coalesce(sum(${walletTxn.amount_cents}), 0)` })
        .from(walletTxn)
        .where(and(eq(walletTxn.package_id, packageId), inArray(walletTxn.kind, [...PACKAGE_MONEY_KINDS])))
        .get()
    )?.s ?? 0;
  return -sum;
}

async function hasCharge(db: Db, packageId: number): Promise<boolean> {
  return (
    (await db
      .select({ id: walletTxn.id })
      .from(walletTxn)
      .where(and(eq(walletTxn.package_id, packageId), eq(walletTxn.kind, 'charge')))
      .get()) != null
  );
}

/**
 * Moves the ledger so the parcel's net charge is `target` cents: the first money is its `charge`,
 * later differences are `reprice` rows (a debit or a credit). A prepaid wallet that cannot pay
 * throws 409 and writes nothing (the caller's savepoint rolls back).
 */
async function settleTo(
  deps: Ledger,
  row: Pick<PackageRow, 'id' | 'hawb'>,
  companyId: number,
  target: number,
  actorId: number | null,
  why: string,
): Promise<void> {
  const diff = target - (await netCharged(deps.db, row.id));
  if (diff === 0) return;
  const w = await ensureWallet(deps, companyId, actorId);
  const first = !(await hasCharge(deps.db, row.id));
  if (first && diff > 0) {
    await append(deps, w.id, {
      kind: 'charge',
      amount_cents: -diff,
      package_id: row.id,
      created_by: actorId,
      reason: `Delivery of ${row.hawb}`,
      reference: row.hawb,
    });
    return;
  }
  await append(deps, w.id, {
    kind: 'reprice',
    amount_cents: -diff,
    package_id: row.id,
    created_by: actorId,
    reference: row.hawb,
    reason: `${diff > 0 ? 'Re-price' : 'Re-price refund'} of ${row.hawb}: ${why}`,
  });
}

/** 409 for a company that refuses unpriced parcels (its setting); the message says what to add. */
export function unpricedRefusal(row: Pick<PackageRow, 'hawb' | 'zone_id' | 'weight' | 'company_id'>): ApiError {
  return conflict(
    `No rate line prices ${row.hawb} (zone ${row.zone_id ?? 'none'}, ${row.weight ?? 0} kg) and this company does not accept unpriced parcels: add a rate line first`,
    { reason: 'unpriced', package: row.hawb, zone: row.zone_id, weight: row.weight, company: row.company_id },
  );
}

export async function writeState(
  db: Db,
  now: number,
  packageId: number,
  companyId: number,
  currency: string,
  state: 'priced' | 'unpriced',
  cents: number | null,
  reason: UnpricedReason | '',
): Promise<void> {
  const values = {
    company_id: companyId,
    state,
    price_cents: cents,
    currency,
    reason,
    priced_at: state === 'priced' ? now : null,
    updated_at: now,
  };
  await db
    .insert(packagePricing)
    .values({ package_id: packageId, ...values })
    .onConflictDoUpdate({ target: packagePricing.package_id, set: values })
    .run();
}

export interface NewState {
  packageId: number;
  companyId: number;
  currency: string;
  state: 'priced' | 'unpriced';
  cents: number | null;
  reason: UnpricedReason | '';
}

/**
 * The states of parcels created in the caller's unit (an upload's chunk), in one INSERT: none of them
 * can have one yet. One statement per parcel journaled the same pages again for each (upload.ts).
 */
export async function writeNewStates(db: Db, now: number, states: readonly NewState[]): Promise<void> {
  if (!states.length) return;
  await db
    .insert(packagePricing)
    .values(
      states.map((s) => ({
        package_id: s.packageId,
        company_id: s.companyId,
        state: s.state,
        price_cents: s.cents,
        currency: s.currency,
        reason: s.reason,
        priced_at: s.state === 'priced' ? now : null,
        updated_at: now,
      })),
    )
    .run();
}

async function setPrice(db: Db, id: number, price: number | null): Promise<PackageRow> {
  const row = await db.update(pkg).set({ price }).where(eq(pkg.id, id)).returning().get();
  if (!row) throw new Error(`package ${id} vanished while being priced`);
  return row;
}

/**
 * At creation, in the transaction that creates the parcel. No company: nothing to charge. No rate
 * line fits: the company's policy refuses (409, nothing created) or accepts it as `unpriced`.
 */
export async function priceAtCreation(deps: Ledger, row: PackageRow, actorId: number | null): Promise<PackageRow> {
  const companyId = row.company_id;
  if (companyId == null) return row;
  const pricing = await priceOfPackage(deps.db, row);
  const now = deps.clock.now();
  if (!pricing.priced) {
    if ((await companyPolicy(deps.db, companyId)).unpriced_policy === 'refuse') {
      throw unpricedRefusal(row);
    }
    await writeState(deps.db, now, row.id, companyId, pricing.currency, 'unpriced', null, 'no_rate_line');
    return row;
  }
  const cents = pricing.priced.price_cents;
  await settleTo(deps, row, companyId, cents, actorId, 'created');
  await writeState(deps.db, now, row.id, companyId, pricing.currency, 'priced', cents, '');
  return await setPrice(deps.db, row.id, toMajor(cents, pricing.currency));
}

/**
 * After a weight, dimension or zone change: price again with the card in force now and settle the
 * difference. No line fits any more: what was charged is refunded and the parcel is listed unpriced.
 */
export async function repriceParcel(deps: Ledger, row: PackageRow, actorId: number | null, why: string): Promise<PackageRow> {
  const companyId = row.company_id;
  if (companyId == null || row.status === 'cancelled') return row;
  const pricing = await priceOfPackage(deps.db, row);
  const now = deps.clock.now();
  if (!pricing.priced) {
    await settleTo(deps, row, companyId, 0, actorId, `${why}; no rate line fits any more`);
    await writeState(deps.db, now, row.id, companyId, pricing.currency, 'unpriced', null, 'no_rate_line');
    return row;
  }
  const cents = pricing.priced.price_cents;
  await settleTo(deps, row, companyId, cents, actorId, why);
  await writeState(deps.db, now, row.id, companyId, pricing.currency, 'priced', cents, '');
  return await setPrice(deps.db, row.id, toMajor(cents, pricing.currency));
}

/** Cancelling gives back everything the parcel was charged, once (the refund row is unique per parcel). */
export async function refundAll(deps: Ledger, row: Pick<PackageRow, 'id' | 'hawb'>, actorId: number | null, reason: string) {
  const net = await netCharged(deps.db, row.id);
  if (net <= 0) return null;
  const already = await deps.db
    .select({ id: walletTxn.id })
    .from(walletTxn)
    .where(and(eq(walletTxn.package_id, row.id), eq(walletTxn.kind, 'refund')))
    .get();
  if (already) return null;
  const first = await deps.db
    .select()
    .from(walletTxn)
    .where(and(eq(walletTxn.package_id, row.id), inArray(walletTxn.kind, ['charge', 'reprice'])))
    .orderBy(walletTxn.id)
    .get();
  if (!first) return null;
  return append(deps, first.wallet_id, {
    kind: 'refund',
    amount_cents: net,
    package_id: row.id,
    created_by: actorId,
    billing: first.billing === 'postpaid' ? 'postpaid' : 'prepaid',
    reason: `Refund of ${row.hawb} (${reason})`,
    reference: row.hawb,
  });
}

export interface UnpricedRow {
  package: number;
  hawb: string;
  company: number;
  status: string;
  reason: string;
  weight: number | null;
  zone: number | null;
  since: number;
}

/** Unpriced parcels (cancelled ones owe nothing and are left out), oldest first; `companyId` narrows. */
export async function unpricedParcels(
  db: Db,
  companyId?: number | null,
  limit = 500,
  offset = 0,
): Promise<{ count: number; rows: UnpricedRow[] }> {
  const where = and(
    eq(packagePricing.state, 'unpriced'),
    ne(pkg.status, 'cancelled'),
    isNull(pkg.deleted_at),
    companyId != null ? eq(packagePricing.company_id, companyId) : undefined,
  );
  const count =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(packagePricing)
        .innerJoin(pkg, eq(pkg.id, packagePricing.package_id))
        .where(where)
        .get()
    )?.n ?? 0;
  const rows = await db
    .select({ p: packagePricing, hawb: pkg.hawb, status: pkg.status, weight: pkg.weight, zone: pkg.zone_id, created: pkg.created_at })
    .from(packagePricing)
    .innerJoin(pkg, eq(pkg.id, packagePricing.package_id))
    .where(where)
    .orderBy(pkg.id)
    .limit(limit)
    .offset(offset)
    .all();
  return {
    count,
    rows: rows.map((r) => ({
      package: r.p.package_id,
      hawb: r.hawb,
      company: r.p.company_id,
      status: r.status,
      reason: r.p.reason,
      weight: r.weight,
      zone: r.zone,
      since: r.created,
    })),
  };
}

/** A page of the unpriced parcels the caller may see (a company: its own), each with its company's name. */
export async function unpricedPage(db: Db, user: SessionUser, q: { company?: number; page: number; page_size: number }) {
  const { count, rows } = await unpricedParcels(db, companyAsked(user, q.company), q.page_size, (q.page - 1) * q.page_size);
  const names = await companyNames(
    db,
    rows.map((r) => r.company),
  );
  return { count, results: rows.map((r) => ({ ...r, company_name: names.get(r.company) ?? null, since: iso(r.since) ?? '' })) };
}

/**
 * Prices every unpriced parcel a rate line now fits, each charged once (its own savepoint: a
 * prepaid wallet that cannot pay leaves that parcel listed, reason `insufficient_balance`).
 * Called after every rate-line write and by the office's "Price now".
 */
export async function priceUnpriced(
  deps: UnitLedger,
  actorId: number | null,
  companyId?: number | null,
): Promise<{ priced: number; remaining: number }> {
  const ids = (
    await deps.db
      .select({ id: packagePricing.package_id })
      .from(packagePricing)
      .innerJoin(pkg, eq(pkg.id, packagePricing.package_id))
      .where(
        and(
          eq(packagePricing.state, 'unpriced'),
          ne(pkg.status, 'cancelled'),
          isNull(pkg.deleted_at),
          companyId != null ? eq(packagePricing.company_id, companyId) : undefined,
        ),
      )
      .orderBy(packagePricing.package_id)
      .all()
  ).map((r) => r.id);
  let priced = 0;
  for (const id of ids) {
    const row = await deps.db.select().from(pkg).where(eq(pkg.id, id)).get();
    if (!row || row.company_id == null) continue;
    const pricing = await priceOfPackage(deps.db, row);
    if (!pricing.priced) continue;
    const cents = pricing.priced.price_cents;
    try {
      await atomically(deps, async () => {
        await settleTo(deps, row, row.company_id as number, cents, actorId, 'priced after a rate line was added');
        await writeState(deps.db, deps.clock.now(), row.id, row.company_id as number, pricing.currency, 'priced', cents, '');
        await setPrice(deps.db, row.id, toMajor(cents, pricing.currency));
      });
      priced += 1;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 409) throw err;
      await writeState(deps.db, deps.clock.now(), row.id, row.company_id, pricing.currency, 'unpriced', null, 'insufficient_balance');
    }
  }
  return { priced, remaining: ids.length - priced };
}

/** The pricing of one parcel for its detail page; `none` for a parcel of no company (nothing to charge). */
export async function pricingOf(db: Db, packageId: number) {
  const row = await db.select().from(packagePricing).where(eq(packagePricing.package_id, packageId)).get();
  return {
    package: packageId,
    state: row ? (row.state === 'priced' ? ('priced' as const) : ('unpriced' as const)) : ('none' as const),
    price_cents: row?.price_cents ?? null,
    charged_cents: (await netCharged(db, packageId)) + 0,
    currency: row?.currency ?? null,
    reason: row?.reason ?? '',
  };
}
