import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { TxnQuery } from '../../../shared/schemas/money';
import type { Db } from '../../db/client';
import { invoice, wallet, walletTxn } from '../../db/schema/index';
import { conflict } from '../../errors';
import { listPage, type ListOptions } from '../../resources/list';
import type { SessionUser } from '../auth/session';
import { companyConds, inScope } from './access';
import { businessZone, type ZoneDeps } from '../time/zones';
import { addDays, startOfLocalDay } from '../../../shared/time/zone';
import { txnsApi, walletApi } from './shape';
import { ensureWallet, findCompany, walletOfCompany, type Ledger, type TxnRow, type WalletRow } from './wallets';

/** A wallet the caller may see; another company's is 404. */
export async function findWallet(db: Db, user: SessionUser, id: number): Promise<WalletRow> {
  return inScope(user, await db.select().from(wallet).where(eq(wallet.id, id)).get(), `Wallet ${id}`);
}

/** A wallet transaction the caller may see; another company's is 404. */
export async function findTxn(db: Db, user: SessionUser, id: number): Promise<TxnRow> {
  return inScope(user, await db.select().from(walletTxn).where(eq(walletTxn.id, id)).get(), `Transaction ${id}`);
}

/** One page of the wallets the caller may see (a company: its own), by id. */
export function walletPage(db: Db, user: SessionUser, q: ListOptions & { company?: number }, url: string) {
  return listPage(db, wallet, and(...companyConds(user, wallet.company_id, q.company)), [wallet.id], q, url, async (rows) => {
    const results = [];
    for (const w of rows) results.push(await walletApi(db, w));
    return results;
  });
}

/** One page of a wallet's (or a company's) transactions, newest first, filtered by kind and the business's local days. */
export async function txnPage(deps: ZoneDeps, of: { walletId: number } | { companyId: number }, q: z.output<typeof TxnQuery>, url: string) {
  const { db } = deps;
  const zone = q.from || q.to ? await businessZone(deps) : deps.config.timeZone;
  const conds = and(
    'walletId' in of ? eq(walletTxn.wallet_id, of.walletId) : eq(walletTxn.company_id, of.companyId),
    q.kind ? eq(walletTxn.kind, q.kind) : undefined,
    q.from ? gte(walletTxn.created_at, startOfLocalDay(q.from, zone)) : undefined,
    q.to ? lt(walletTxn.created_at, startOfLocalDay(addDays(q.to, 1), zone)) : undefined,
  );
  return listPage(db, walletTxn, conds, [desc(walletTxn.id)], q, url, (rows) => txnsApi(db, rows));
}

/** Opens a company's wallet ahead of its first use, with a credit limit when given; a second wallet is 409. */
export async function openWallet(
  deps: Ledger,
  user: SessionUser,
  companyId: number,
  creditLimitCents: number | null | undefined,
): Promise<WalletRow> {
  await findCompany(deps.db, companyId);
  if (await walletOfCompany(deps.db, companyId)) throw conflict(`Company ${companyId} already has a wallet`);
  const w = await ensureWallet(deps, companyId, user.id);
  return creditLimitCents === undefined
    ? w
    : ((await deps.db.update(wallet).set({ credit_limit_cents: creditLimitCents }).where(eq(wallet.id, w.id)).returning().get()) ?? w);
}

/** Sets a wallet's credit limit; the balance never changes here, only transactions move it. */
export async function setCreditLimit(deps: Ledger, w: WalletRow, creditLimitCents: number | null): Promise<WalletRow | undefined> {
  return await deps.db
    .update(wallet)
    .set({ credit_limit_cents: creditLimitCents, updated_at: deps.clock.now() })
    .where(eq(wallet.id, w.id))
    .returning()
    .get();
}

/** A company's wallet totals, its open statements and its ten latest transactions. */
export async function walletSummary(db: Db, w: WalletRow, companyId: number) {
  const sums = await db
    .select({
      credited: sql<number>`coalesce(sum(case when ${walletTxn.amount_cents} > 0 then ${walletTxn.amount_cents} end), 0)`,
      debited: sql<number>`coalesce(sum(case when ${walletTxn.amount_cents} < 0 then -${walletTxn.amount_cents} end), 0)`,
      charges: sql<number>`coalesce(sum(case when ${walletTxn.kind} = 'charge' then -${walletTxn.amount_cents} end), 0)`,
      refunds: sql<number>`coalesce(sum(case when ${walletTxn.kind} = 'refund' then ${walletTxn.amount_cents} end), 0)`,
      n: sql<number>`count(*)`,
    })
    .from(walletTxn)
    .where(eq(walletTxn.wallet_id, w.id))
    .get();
  const open = await db
    .select({ n: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${invoice.total_cents}), 0)` })
    .from(invoice)
    .where(and(eq(invoice.company_id, companyId), eq(invoice.status, 'issued')))
    .get();
  const recent = await db.select().from(walletTxn).where(eq(walletTxn.wallet_id, w.id)).orderBy(desc(walletTxn.id)).limit(10).all();
  return {
    totals: {
      credited_cents: sums?.credited ?? 0,
      debited_cents: sums?.debited ?? 0,
      charges_cents: sums?.charges ?? 0,
      refunds_cents: sums?.refunds ?? 0,
      transactions: sums?.n ?? 0,
    },
    outstanding_invoices: open?.n ?? 0,
    outstanding_cents: open?.total ?? 0,
    recent_transactions: await txnsApi(db, recent),
  };
}
