import { minorDigits, parseMinor } from '../../../shared/money';

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string): Intl.NumberFormat | null {
  let f = formatters.get(currency);
  if (!f) {
    try {
      f = new Intl.NumberFormat(undefined, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' });
    } catch {
      return null;
    }
    formatters.set(currency, f);
  }
  return f;
}

/**
 * Integer minor units as the user's locale writes that currency (`1250, 'AUD'` -> `$12.50`).
 * The division is exact for every amount the server allows (at most 1e11 cents), so no rounding creeps in.
 */
export function money(cents: number | null | undefined, currency: string | null | undefined): string {
  if (cents == null) return '—';
  const cur = currency || 'AUD';
  const major = cents / 10 ** minorDigits(cur);
  return formatter(cur)?.format(major) ?? `${major.toFixed(minorDigits(cur))} ${cur}`;
}

/** Signed, for ledgers: credits get a plus so the direction reads without colour. */
export function signedMoney(cents: number, currency: string): string {
  return cents > 0 ? `+${money(cents, currency)}` : money(cents, currency);
}

/**
 * What a person typed in major units ("12.5", "1,250.00") to minor units, by string arithmetic so
 * 0.1 + 0.2 never happens. Null when it is not a non-negative amount with at most the currency's digits.
 */
export function parseMoney(input: string, currency: string): number | null {
  return parseMinor(input, currency);
}

/** Minor units back to the text a money input shows ("12.50"). */
export function majorText(cents: number | null | undefined, currency: string): string {
  if (cents == null) return '';
  const digits = minorDigits(currency || 'AUD');
  if (digits === 0) return String(cents);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 10 ** digits)}.${String(abs % 10 ** digits).padStart(digits, '0')}`;
}

/** yyyy-mm-dd of a local date, for <input type=date>. */
export function isoDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
