/**
 * GST on tax invoices (issue 18): pure integer-cent rules shared by the server (PDF) and the admin screen.
 *
 * Rounding rule (printed on every tax invoice): GST is worked out per line and rounded half-up to the
 * cent (half away from zero for credits, so a credit line mirrors its charge exactly); invoice totals are
 * the sums of the rounded lines, never re-derived from the grand total.
 */

/** GST rate in basis points: 1000 = 10 % (Australia). */
export const DEFAULT_GST_RATE_BP = 1000;

export interface GstLine {
  /** Amount before GST, in cents. */
  excl_cents: number;
  gst_cents: number;
  /** Amount including GST, in cents. */
  incl_cents: number;
}

/** num / den rounded half away from zero, in integers only (den > 0). */
function divRoundHalfUp(num: number, den: number): number {
  const q = Math.floor((2 * Math.abs(num) + den) / (2 * den));
  return num < 0 ? -q : q;
}

/**
 * Splits one line amount (integer cents, negative for a credit) into excl / GST / incl.
 * `inclusive`: the amount already contains GST (GST = amount × rate / (1 + rate)); otherwise GST is added on top.
 */
export function gstForLine(amountCents: number, rateBp: number, inclusive: boolean): GstLine {
  if (!Number.isSafeInteger(amountCents)) throw new RangeError('amount must be whole cents');
  if (!Number.isInteger(rateBp) || rateBp < 0 || rateBp > 10_000) throw new RangeError('GST rate must be 0..10000 basis points');
  if (inclusive) {
    const gst = divRoundHalfUp(amountCents * rateBp, 10_000 + rateBp);
    return { excl_cents: amountCents - gst, gst_cents: gst, incl_cents: amountCents };
  }
  const gst = divRoundHalfUp(amountCents * rateBp, 10_000);
  return { excl_cents: amountCents, gst_cents: gst, incl_cents: amountCents + gst };
}

/** Every line's split and the totals, which are the sums of the lines. */
export function gstForLines(amounts: readonly number[], rateBp: number, inclusive: boolean): { lines: GstLine[]; total: GstLine } {
  const lines = amounts.map((a) => gstForLine(a, rateBp, inclusive));
  const total = lines.reduce(
    (t, l) => ({
      excl_cents: t.excl_cents + l.excl_cents,
      gst_cents: t.gst_cents + l.gst_cents,
      incl_cents: t.incl_cents + l.incl_cents,
    }),
    { excl_cents: 0, gst_cents: 0, incl_cents: 0 },
  );
  return { lines, total };
}

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/** The ABR's ABN check: 11 digits; subtract 1 from the first, weight, sum, divisible by 89. Spaces allowed. */
export function isValidAbn(abn: string): boolean {
  const digits = abn.replace(/\s+/g, '');
  if (!/^\d{11}$/.test(digits)) return false;
  const sum = [...digits].reduce((s, d, i) => s + (Number(d) - (i === 0 ? 1 : 0)) * ABN_WEIGHTS[i], 0);
  return sum % 89 === 0;
}

/** An ABN as the ABR prints it: `51 824 753 556`. */
export function formatAbn(abn: string): string {
  const d = abn.replace(/\s+/g, '');
  return d.length === 11 ? `${d.slice(0, 2)} ${d.slice(2, 5)} ${d.slice(5, 8)} ${d.slice(8)}` : abn;
}
