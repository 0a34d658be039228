import { and, eq } from 'drizzle-orm';
import { ApiError } from '../../errors';
import { walletTxn } from '../../db/schema/index';
import type { Db } from '../../db/client';
import type { PackageRow } from '../packages/shape';
import { netCharged, priceAtCreation, pricingOf, refundAll, repriceParcel } from './parcelPricing';
import type { Ledger, TxnRow, UnitLedger } from './wallets';
import { atomically } from '../../db/atomically';

/**
 * Prices a parcel the moment it is accepted and charges its company's wallet, inside the
 * transaction that creates it: a prepaid company without the balance gets 409 and no parcel.
 * No rate line fits: unpriced (listed for the office) or refused, as the company's terms say
 * (`priceAtCreation` in parcelPricing.ts). Returns the row with its `price` set.
 */
export async function chargeForPackage(
  deps: Ledger,
  companyId: number | null | undefined,
  row: PackageRow,
  actorId: number | null = null,
): Promise<PackageRow> {
  if (companyId == null) return row;
  return await priceAtCreation(deps, { ...row, company_id: companyId }, actorId);
}

/**
 * Gives back what a parcel was charged (its charge and any re-prices), once: the lifecycle calls it
 * when a parcel is cancelled. Returns the refund, or null when nothing was charged or it was already refunded.
 */
export async function refundPackage(
  deps: Ledger,
  row: Pick<PackageRow, 'id' | 'hawb'>,
  actorId: number | null = null,
  reason = 'cancelled',
): Promise<TxnRow | null> {
  return await refundAll(deps, row, actorId, reason);
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
export async function repriceForZone(deps: UnitLedger, row: PackageRow, actorId: number | null = null): Promise<RepriceOutcome> {
  if (row.company_id == null) return { status: 'unchanged', price: row.price };
  // One rule for every re-price (parcelPricing.ts, issue 18): settle to what the parcel now implies, or list it unpriced.
  const before = (await netCharged(deps.db, row.id)) + 0;
  const wasCharged =
    (await deps.db
      .select({ id: walletTxn.id })
      .from(walletTxn)
      .where(and(eq(walletTxn.package_id, row.id), eq(walletTxn.kind, 'charge')))
      .get()) != null;
  try {
    return await atomically(deps, async () => {
      const updated = await repriceParcel(deps, row, actorId, 'zone changed');
      if ((await pricingOf(deps.db, row.id)).state === 'unpriced') {
        return { status: 'unpriced' as const, price: updated.price, reason: 'no line of the rate card fits the new zone' };
      }
      const after = (await netCharged(deps.db, row.id)) + 0;
      if (after === before) return { status: 'unchanged' as const, price: updated.price };
      return { status: wasCharged ? ('repriced' as const) : ('charged' as const), price: updated.price };
    });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: 'refused', price: row.price, reason: err.message };
  }
}

/** For the lifecycle, which holds the database and the time rather than Deps: every cancel refunds. */
export async function refundOnCancel(db: Db, now: number, row: Pick<PackageRow, 'id' | 'hawb'>, actorId: number | null): Promise<void> {
  await refundPackage({ db, clock: { now: () => now } }, row, actorId, 'cancelled');
}
