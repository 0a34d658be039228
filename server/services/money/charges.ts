import { and, eq, sql } from 'drizzle-orm';
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

/**
 * Gives back what a parcel was charged, once: the lifecycle calls it when a parcel is cancelled.
 * Returns the refund, or null when there was no charge or it was already refunded.
 */
export function refundPackage(deps: Ledger, row: Pick<PackageRow, 'id' | 'hawb'>, actorId: number | null = null, reason = 'cancelled'): TxnRow | null {
  const charge = chargeOf(deps, row.id);
  if (!charge) return null;
  const already = prepared(deps.db, 'charges.txnOfPackage', txnOfPackage).get({ pkg: row.id, kind: 'refund' });
  if (already) return null;
  return append(deps, charge.wallet_id, {
    kind: 'refund', amount_cents: -charge.amount_cents, package_id: row.id, created_by: actorId,
    billing: charge.billing === 'postpaid' ? 'postpaid' : 'prepaid',
    reason: `Refund of ${row.hawb} (${reason})`, reference: row.hawb,
  });
}

/** For the lifecycle, which holds the database and the time rather than Deps: every cancel refunds. */
export function refundOnCancel(db: Db, now: number, row: Pick<PackageRow, 'id' | 'hawb'>, actorId: number | null): void {
  refundPackage({ db, clock: { now: () => now } }, row, actorId, 'cancelled');
}
