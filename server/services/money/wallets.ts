import { and, eq, gte, sql } from 'drizzle-orm';
import { canDebit, formatMinor, post, type Billing, type TxnKind, type WalletState } from '../../../shared/money';
import type { Db } from '../../db/client';
import { company, wallet, walletTxn } from '../../db/schema/index';
import type { Deps } from '../../deps';

/** What the ledger needs: the database (inside the caller's transaction) and the time. */
export type Ledger = Pick<Deps, 'db' | 'clock'>;
/** A ledger that may open a unit of work (or a savepoint in the caller's) of its own. */
export type UnitLedger = Pick<Deps, 'db' | 'clock' | 'writes'>;
import { conflict, notFound } from '../../errors';

export type WalletRow = typeof wallet.$inferSelect;
export type TxnRow = typeof walletTxn.$inferSelect;
export type CompanyRow = typeof company.$inferSelect;

export async function findCompany(db: Db, companyId: number): Promise<CompanyRow> {
  const row = await db.select().from(company).where(eq(company.id, companyId)).get();
  if (!row || row.deleted_at != null) throw notFound(`Company ${companyId} not found`);
  return row;
}

export function billingOf(co: CompanyRow): Billing {
  return co.billing_type === 'postpaid' ? 'postpaid' : 'prepaid';
}

export async function walletOfCompany(db: Db, companyId: number): Promise<WalletRow | undefined> {
  return await db.select().from(wallet).where(eq(wallet.company_id, companyId)).get();
}

/** A company's wallet, opened on first use in the company's currency. Runs inside the caller's transaction. */
export async function ensureWallet(deps: Ledger, companyId: number, createdBy: number | null = null): Promise<WalletRow> {
  const existing = await walletOfCompany(deps.db, companyId);
  if (existing) return existing;
  const co = await findCompany(deps.db, companyId);
  const now = deps.clock.now();
  return await deps.db
    .insert(wallet)
    .values({
      company_id: companyId,
      currency: co.currency,
      balance_cents: 0,
      created_by: createdBy,
      created_at: now,
      updated_at: now,
    })
    .returning()
    .get();
}

export function stateOf(w: WalletRow, co: CompanyRow): WalletState {
  return { billing: billingOf(co), balance_cents: w.balance_cents, credit_limit_cents: w.credit_limit_cents };
}

export interface Posting {
  kind: TxnKind;
  /** Signed: credits positive, debits negative. */
  amount_cents: number;
  package_id?: number | null;
  reason?: string;
  reference?: string;
  created_by?: number | null;
  /** Defaults to the company's billing type now; a refund takes its charge's. */
  billing?: Billing;
}

export function insufficientFunds(co: CompanyRow, w: WalletRow, needed: number) {
  return conflict(
    `Insufficient wallet balance for ${co.name}: ${formatMinor(w.balance_cents, w.currency)} ${w.currency} available, ` +
      `${formatMinor(needed, w.currency)} ${w.currency} needed. Recharge the wallet first.`,
    { wallet: w.id, company: co.id, balance_cents: w.balance_cents, required_cents: needed, currency: w.currency },
  );
}

/** No floor: a value no balance reaches, so one prepared UPDATE serves floored and unfloored moves. */
const NO_FLOOR = Number.MIN_SAFE_INTEGER;

function ledgerStatements(db: Db) {
  return {
    find: db
      .select({ w: wallet, co: company })
      .from(wallet)
      .innerJoin(company, eq(company.id, wallet.company_id))
      .where(eq(wallet.id, sql.placeholder('id')))
      .prepare(),
    move: db
      .update(wallet)
      .set({ balance_cents: sql`${wallet.balance_cents} + ${sql.placeholder('amount')}`, updated_at: sql`${sql.placeholder('now')}` })
      .where(
        and(
          eq(wallet.id, sql.placeholder('id')),
          gte(sql`${wallet.balance_cents} + ${sql.placeholder('amount')}`, sql.placeholder('floor')),
        ),
      )
      .returning({ balance: wallet.balance_cents })
      .prepare(),
    insert: db
      .insert(walletTxn)
      .values({
        wallet_id: sql.placeholder('wallet_id'),
        company_id: sql.placeholder('company_id'),
        kind: sql.placeholder('kind'),
        amount_cents: sql.placeholder('amount_cents'),
        balance_after_cents: sql.placeholder('balance_after_cents'),
        currency: sql.placeholder('currency'),
        billing: sql.placeholder('billing'),
        package_id: sql.placeholder('package_id'),
        reason: sql.placeholder('reason'),
        reference: sql.placeholder('reference'),
        created_by: sql.placeholder('created_by'),
        created_at: sql.placeholder('created_at'),
      })
      .returning()
      .prepare(),
  };
}
// Built once per database: a bulk upload appends one transaction per parcel.
const statements = new WeakMap<Db, ReturnType<typeof ledgerStatements>>();
function stmts(db: Db) {
  let s = statements.get(db);
  if (!s) {
    s = ledgerStatements(db);
    statements.set(db, s);
  }
  return s;
}

/**
 * Appends one transaction and moves the cached balance with it, both inside the caller's
 * transaction. Debits are checked twice: by the pure rule (for the message) and by a conditional
 * UPDATE, so no interleaving can ever take a prepaid wallet below zero.
 */
export async function append(deps: Ledger, walletId: number, p: Posting, enforceFloor = true): Promise<TxnRow> {
  const { db } = deps;
  const q = stmts(db);
  const found = await q.find.get({ id: walletId });
  if (!found) throw notFound(`Wallet ${walletId} not found`);
  const { w, co } = found;
  post(w.balance_cents, p.amount_cents);
  const debit = p.amount_cents < 0;
  const state = stateOf(w, co);
  if (debit && enforceFloor && !canDebit(state, -p.amount_cents)) throw insufficientFunds(co, w, -p.amount_cents);
  const floor =
    !debit || !enforceFloor ? null : state.billing === 'prepaid' ? 0 : state.credit_limit_cents == null ? null : -state.credit_limit_cents;
  const now = deps.clock.now();
  const moved = await q.move.get({ id: w.id, amount: p.amount_cents, now, floor: floor ?? NO_FLOOR });
  if (!moved) throw insufficientFunds(co, w, -p.amount_cents);
  const row = await q.insert.get({
    wallet_id: w.id,
    company_id: w.company_id,
    kind: p.kind,
    amount_cents: p.amount_cents,
    balance_after_cents: moved.balance,
    currency: w.currency,
    billing: p.billing ?? state.billing,
    package_id: p.package_id ?? null,
    reason: p.reason ?? '',
    reference: p.reference ?? '',
    created_by: p.created_by ?? null,
    created_at: now,
  });
  if (!row) throw new Error(`wallet ${w.id}: the transaction insert returned nothing`);
  return row;
}
