import { and, eq, inArray, sql } from 'drizzle-orm';
import { ApiError } from '../../errors';
import { toMajor } from '../../../shared/money';
import { pkg, walletTxn } from '../../db/schema/index';
import type { Db } from '../../db/client';
import { bound, prepared } from '../../db/prepared';
import type { PackageRow } from '../packages/shape';
import { priceOfPackage } from './pricing';
import { append, ensureWallet, findCompany, type Ledger, type TxnRow } from './wallets';

// Every accepted parcel is priced and every cancel looks for its charge: built once per database.
const priceUpdate = (db: Db) => db.update(pkg).set({ price: bound('price') }).where(eq(pkg.id, sql.placeholder('id'))).returning().prepare();
const txnOfPackage = (db: Db) => db.select().from(walletTxn)
  .where(and(eq(walletTxn.package_id, sql.placeholder('pkg')), eq(walletTxn.kind, sql.placeholder('kind')))).prepare();

/**
 * Prices a parcel the moment it is accepted and charges its company's wallet, inside the
 * transaction that creates it: a prepaid company without the balance gets 409 and no parcel.
 * A parcel no rate card line fits (or of no company) is accepted uncharged, its price left as sent.
 * Returns the row with its `price` set.
 */
export function chargeForPackage(deps: Ledger, companyId: number | null | undefined, row: PackageRow, actorId: number | null = null): PackageRow {
  if (companyId == null) return row;
  const pricing = priceOfPackage(deps.db, { ...row, company_id: companyId });
  if (!pricing.priced) return row;
  const cents = pricing.priced.price_cents;
  const co = findCompany(deps.db, companyId);
  if (cents > 0) {
    const w = ensureWallet(deps, companyId, actorId);
    append(deps, w.id, {
      kind: 'charge', amount_cents: -cents, package_id: row.id, created_by: actorId,
      reason: `Delivery of ${row.hawb}`, reference: row.hawb,
    });
  }
  return prepared(deps.db, 'charges.priceUpdate', priceUpdate).get({ price: toMajor(cents, co.currency), id: row.id }) ?? row;
}

export function chargeOf(deps: Ledger, packageId: number): TxnRow | undefined {
  return prepared(deps.db, 'charges.txnOfPackage', txnOfPackage).get({ pkg: packageId, kind: 'charge' });
}

/** What a parcel's company owes for it now: its charge, re-prices and refund together. */
export function netCharged(deps: Ledger, packageId: number): { cents: number; walletId: number | null; billing: string | null } {
  const rows = deps.db.select().from(walletTxn)
    .where(and(eq(walletTxn.package_id, packageId), inArray(walletTxn.kind, ['charge', 'refund', 'reprice']))).orderBy(walletTxn.id).all();
  const last = rows.filter((r) => r.kind === 'charge').at(-1);
  return { cents: -rows.reduce((a, r) => a + r.amount_cents, 0), walletId: last?.wallet_id ?? null, billing: last?.billing ?? null };
}

/**
 * Gives back what a parcel was charged, once: the lifecycle calls it when a parcel is cancelled.
 * Returns the refund, or null when there was no charge or it was already refunded. What is given
 * back is the net of the parcel's charges and refunds, so a re-priced parcel is refunded exactly
 * what it finally cost.
 */
export function refundPackage(deps: Ledger, row: Pick<PackageRow, 'id' | 'hawb'>, actorId: number | null = null, reason = 'cancelled'): TxnRow | null {
  const net = netCharged(deps, row.id);
  if (net.cents <= 0 || net.walletId == null) return null;
  return append(deps, net.walletId, {
    kind: 'refund', amount_cents: net.cents, package_id: row.id, created_by: actorId,
    billing: net.billing === 'postpaid' ? 'postpaid' : 'prepaid',
    reason: `Refund of ${row.hawb} (${reason})`, reference: row.hawb,
  });
}

export type RepriceOutcome =
  | { status: 'unchanged' | 'charged' | 'repriced'; price: number | null }
  | { status: 'unpriced' | 'refused'; price: number | null; reason: string };

/**
 * A parcel's zone changed after acceptance (the depot scan or an edit located it better): it is
 * priced again from the same rate card, as a quote for the new zone would be. Not yet charged: it
 * is charged now. Charged a different amount: the difference is posted (kind `reprice`, on the
 * next statement like the charge), so a later cancel refunds what it finally cost. A prepaid wallet that cannot pay the difference, or a zone no line fits,
 * keeps the old price and says why; the scan or edit itself is never refused for money.
 */
export function repriceForZone(deps: Ledger, row: PackageRow, actorId: number | null = null): RepriceOutcome {
  if (row.company_id == null) return { status: 'unchanged', price: row.price };
  const pricing = priceOfPackage(deps.db, row);
  if (!pricing.priced) return { status: 'unpriced', price: row.price, reason: 'no line of the rate card fits the new zone' };
  const cents = pricing.priced.price_cents;
  const net = netCharged(deps, row.id);
  if (net.walletId != null && net.cents === cents) return { status: 'unchanged', price: row.price };
  try {
    return deps.db.transaction(() => {
      if (net.walletId == null) return { status: 'charged' as const, price: chargeForPackage(deps, row.company_id, row, actorId).price };
      append(deps, net.walletId, {
        kind: 'reprice', amount_cents: net.cents - cents, package_id: row.id, created_by: actorId,
        reason: `Re-priced ${row.hawb}: zone changed`, reference: row.hawb,
      });
      const co = findCompany(deps.db, row.company_id as number);
      const updated = prepared(deps.db, 'charges.priceUpdate', priceUpdate).get({ price: toMajor(cents, co.currency), id: row.id });
      return { status: 'repriced' as const, price: updated?.price ?? null };
    });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: 'refused', price: row.price, reason: err.message };
  }
}

/** For the lifecycle, which holds the database and the time rather than Deps: every cancel refunds. */
export function refundOnCancel(db: Db, now: number, row: Pick<PackageRow, 'id' | 'hawb'>, actorId: number | null): void {
  refundPackage({ db, clock: { now: () => now } }, row, actorId, 'cancelled');
}
