/**
 * The GST rate is kept in basis points (1000 = 10 %) and typed as a percentage. Text becomes basis
 * points by string arithmetic, never by multiplying a float ("12.35" * 100 is 1234.9999...).
 */

/** Basis points as the percentage an admin types: 1000 -> "10", 1250 -> "12.5". */
export function gstPercentText(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const frac = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** "10" -> 1000, "12.5" -> 1250, " 7.25 % " -> 725; null for anything else (more than 2 decimals, over 100, words). */
export function parseGstPercent(text: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim().replace(/\s*%$/, ''));
  if (!m) return null;
  const bp = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bp <= 10_000 ? bp : null;
}
