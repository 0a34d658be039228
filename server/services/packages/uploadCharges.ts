import { selectRate, toMajor, type RateLine } from '../../../shared/money';
import type { Deps } from '../../deps';
import { cardFor, currencyOf, packageTypeIdByName, toRateLines } from '../money/pricing';
import { append, ensureWallet } from '../money/wallets';

export interface ChargeableRow {
  company_id: number | null;
  zone_id: number | null;
  pkg_type: string | null;
  weight: number | null;
  length: number | null;
  width: number | null;
  height: number | null;
}

/**
 * The pricing and wallet charge of `chargeForPackage` (money/charges.ts) for many parcels of one
 * upload: the card, currency, wallet and package-type look-ups are done once per upload instead of
 * once per row, which is what made a charged 10,000-row upload take minutes. Same card choice
 * (`cardFor`), same line choice (`selectRate`), same ledger (`append`), same price written.
 */
export function uploadCharger(deps: Deps, actorId: number) {
  const { db } = deps;
  const cards = new Map<number, { currency: string; lines: RateLine[] }>();
  const wallets = new Map<number, number>();
  const typeIds = new Map<string, number | null>();

  const cardOf = async (companyId: number) => {
    let card = cards.get(companyId);
    if (!card) {
      const currency = await currencyOf(db, companyId);
      card = { currency, lines: await toRateLines(db, (await cardFor(db, companyId, currency)).rows) };
      cards.set(companyId, card);
    }
    return card;
  };
  const typeIdOf = async (name: string | null) => {
    const key = name?.trim().toLowerCase() ?? '';
    if (!typeIds.has(key)) typeIds.set(key, await packageTypeIdByName(db, name));
    return typeIds.get(key) ?? null;
  };

  return {
    /** What the parcel costs, or null when no line of its company's card fits (it is then accepted uncharged). */
    async currency(companyId: number): Promise<string> {
      return (await cardOf(companyId)).currency;
    },
    async price(row: ChargeableRow): Promise<{ cents: number; price: number } | null> {
      if (row.company_id == null) return null;
      const card = await cardOf(row.company_id);
      if (!card.lines.length) return null;
      const priced = selectRate(card.lines, {
        weight: row.weight,
        length: row.length,
        width: row.width,
        height: row.height,
        zone_id: row.zone_id,
        package_type_id: await typeIdOf(row.pkg_type),
      });
      return priced ? { cents: priced.price_cents, price: toMajor(priced.price_cents, card.currency) } : null;
    },
    /** Debits the company's wallet for the parcel; a prepaid wallet without the balance throws 409 and writes nothing. */
    async charge(companyId: number, packageId: number, hawb: string, cents: number): Promise<void> {
      if (cents <= 0) return;
      let walletId = wallets.get(companyId);
      if (walletId === undefined) {
        walletId = (await ensureWallet(deps, companyId, actorId)).id;
        wallets.set(companyId, walletId);
      }
      await append(deps, walletId, {
        kind: 'charge',
        amount_cents: -cents,
        package_id: packageId,
        created_by: actorId,
        reason: `Delivery of ${hawb}`,
        reference: hawb,
      });
    },
  };
}
