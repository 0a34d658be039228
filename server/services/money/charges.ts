import { and, eq, sql } from 'drizzle-orm';
import { walletTxn } from '../../db/schema/index';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import type { PackageRow } from '../packages/shape';
import { priceAtCreation, refundAll } from './parcelPricing';
import type { Ledger, TxnRow } from './wallets';

// Built once per database.
const txnOfPackage = (db: Db) => db.select().from(walletTxn)
  .where(and(eq(walletTxn.package_id, sql.placeholder('pkg')), eq(walletTxn.kind, sql.placeholder('kind')))).prepare();

/**
 * Prices a parcel the moment it is accepted and charges its company's wallet, inside the
 * transaction that creates it: a prepaid company without the balance gets 409 and no parcel.
 * No rate line fits: unpriced (listed for the office) or refused, as the company's terms say
 * (`priceAtCreation` in parcelPricing.ts). Returns the row with its `price` set.
 */
export function chargeForPackage(deps: Ledger, companyId: number | null | undefined, row: PackageRow, actorId: number | null = null): PackageRow {
  if (companyId == null) return row;
  return priceAtCreation(deps, { ...row, company_id: companyId }, actorId);
}

export function chargeOf(deps: Ledger, packageId: number): TxnRow | undefined {
  return prepared(deps.db, 'charges.txnOfPackage', txnOfPackage).get({ pkg: packageId, kind: 'charge' });
}

/**
 * Gives back what a parcel was charged (its charge and any re-prices), once: the lifecycle calls it
 * when a parcel is cancelled. Returns the refund, or null when nothing was charged or it was already refunded.
 */
export function refundPackage(deps: Ledger, row: Pick<PackageRow, 'id' | 'hawb'>, actorId: number | null = null, reason = 'cancelled'): TxnRow | null {
  return refundAll(deps, row, actorId, reason);
}

/** For the lifecycle, which holds the database and the time rather than Deps: every cancel refunds. */
export function refundOnCancel(db: Db, now: number, row: Pick<PackageRow, 'id' | 'hawb'>, actorId: number | null): void {
  refundPackage({ db, clock: { now: () => now } }, row, actorId, 'cancelled');
}
