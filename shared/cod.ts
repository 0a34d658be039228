/**
 * Cash on delivery rules shared by the phone and the server (issue 34, docs/decisions-cod.md): the
 * phone refuses offline what the server would refuse, with the same function. Amounts are integer
 * minor units.
 */

export const COD_METHODS = ['cash', 'card'] as const;
export type CodMethod = (typeof COD_METHODS)[number];

export interface CodDue {
  amount_cents: number;
  waived_cents: number;
}
/** What the phone keeps of a parcel's amount to collect (from the sync feed; absent when nothing is due). */
export interface CodOnPhone extends CodDue {
  currency: string;
}
export interface Collection {
  amount_cents: number;
  method: CodMethod;
}

/** What the driver must collect at least: the amount less what the office waived. */
export const minimumToCollect = (due: CodDue): number => Math.max(0, due.amount_cents - due.waived_cents);

export type CollectionCheck =
  { ok: true; collected_cents: number } | { ok: false; reason: 'missing' | 'short' | 'over'; message: string; required_cents: number };

/**
 * Whether a delivery's collection satisfies the parcel's amount. Nothing due: any collection is
 * refused as over (a recipient is never charged what nobody asked). Short is refused unless waived.
 */
export function checkCollection(due: CodDue | null, collection: Collection | undefined): CollectionCheck {
  const amount = due?.amount_cents ?? 0;
  const required = due ? minimumToCollect(due) : 0;
  const got = collection?.amount_cents ?? 0;
  if (got > amount) return { ok: false, reason: 'over', message: `Collected ${got} but only ${amount} is due`, required_cents: required };
  if (required > 0 && collection == null)
    return {
      ok: false,
      reason: 'missing',
      message: `Collect ${required} on delivery, or ask the office to waive it`,
      required_cents: required,
    };
  if (got < required)
    return {
      ok: false,
      reason: 'short',
      message: `Collected ${got} of the ${required} due; the office must waive the rest first`,
      required_cents: required,
    };
  return { ok: true, collected_cents: got };
}

/**
 * A hand-over: the cash the driver should bring (float + cash collected) against what was counted.
 * `difference` < 0 is a shortfall the driver owes; > 0 a surplus.
 */
export function handoverOutcome(expected: number, counted: number): { difference_cents: number; shortfall_cents: number } {
  const difference = counted - expected;
  return { difference_cents: difference, shortfall_cents: 0 - difference };
}
