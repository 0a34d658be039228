/**
 * Pure money rules shared by server and client: integer minor units, rate-card pricing and the
 * ledger checks. Nothing here touches a database, so the same answers appear offline and on the server.
 */

export const DEFAULT_VOLUMETRIC_DIVISOR = 5000;
/** Far beyond any parcel price or recharge, yet every sum of such amounts stays a safe integer. */
export const MAX_AMOUNT_CENTS = 100_000_000_000;

export const BILLING = ['prepaid', 'postpaid'] as const;
export type Billing = (typeof BILLING)[number];

/** Credits (recharge, payment, refund, credit adjustment) are positive, debits negative. */
/** `reprice`: a parcel's weight or dimensions changed after it was charged; the difference, either way. */
/** `cod_collected`: cash on delivery collected for the company (owed to it); `cod_payout`: the courier paid it out (issue 34). */
export const TXN_KINDS = ['recharge', 'payment', 'charge', 'refund', 'adjustment', 'reprice', 'cod_collected', 'cod_payout'] as const;
export type TxnKind = (typeof TXN_KINDS)[number];

/** Digits after the decimal point of a currency (AUD 2, JPY 0), from the runtime's ISO 4217 data. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** `1250, 'AUD'` -> `'12.50'`; exact for any safe integer, no floating point. */
export function formatMinor(cents: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  if (digits === 0) return `${sign}${abs}`;
  const scale = 10 ** digits;
  return `${sign}${Math.floor(abs / scale)}.${String(abs % scale).padStart(digits, '0')}`;
}

/** Typed major units ("12.50", "1,200") as integer minor units; null when it is not an amount of this currency. */
export function parseMinor(input: string, currency: string): number | null {
  const digits = minorDigits(currency || 'AUD');
  const s = input.trim().replace(/[,\s]/g, '');
  const m = /^(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > digits) return null;
  const cents = Number(m[1]) * 10 ** digits + Number(frac.padEnd(digits, '0') || '0');
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Minor units to the major-unit number a Package `price` field carries. */
export function toMajor(cents: number, currency: string): number {
  return cents / 10 ** minorDigits(currency);
}

export function isAmount(value: number): boolean {
  return Number.isSafeInteger(value) && Math.abs(value) <= MAX_AMOUNT_CENTS;
}

// ---------------------------------------------------------------------------------------------
// Pricing

export interface Parcel {
  /** Actual weight in kilograms. */
  weight?: number | null;
  /** Dimensions in centimetres. */
  length?: number | null;
  width?: number | null;
  height?: number | null;
  zone_id?: number | null;
  package_type_id?: number | null;
}

export interface RateLine {
  id: number;
  zone_id: number | null;
  package_type_id: number | null;
  /** Kilograms per unit of the line's weight band (1 for kg). */
  kg_factor: number;
  min_weight: number;
  max_weight: number | null;
  base_cents: number;
  per_unit_cents: number;
  volumetric_divisor: number;
}

/** Grams, rounded up: weights are billed on whole grams so float noise never flips a band. */
function grams(kg: number): number {
  return Math.ceil(Math.round(kg * 1_000_000) / 1000);
}

export function volumetricKg(p: Parcel, divisor = DEFAULT_VOLUMETRIC_DIVISOR): number {
  if (!p.length || !p.width || !p.height || divisor <= 0) return 0;
  return grams((p.length * p.width * p.height) / divisor) / 1000;
}

/** The weight a parcel is billed on: the larger of what it weighs and the room it takes. */
export function chargeableKg(p: Parcel, divisor = DEFAULT_VOLUMETRIC_DIVISOR): number {
  return Math.max(grams(Math.max(p.weight ?? 0, 0)) / 1000, volumetricKg(p, divisor));
}

export interface PricedLine {
  line: RateLine;
  chargeable_kg: number;
  volumetric_kg: number;
  /** Chargeable weight in the line's unit. */
  units: number;
  /** Whole units above the band's start, each billed at `per_unit_cents`. */
  extra_units: number;
  price_cents: number;
}

/** Prices a parcel on one line, or null when its weight falls outside the line's band. */
export function priceOnLine(line: RateLine, p: Parcel): PricedLine | null {
  const volumetric = volumetricKg(p, line.volumetric_divisor);
  const chargeable = chargeableKg(p, line.volumetric_divisor);
  // Compare in thousandths of a unit: exact for every band a person would type.
  const milli = Math.round((chargeable / line.kg_factor) * 1000);
  const min = Math.round(line.min_weight * 1000);
  if (milli < min) return null;
  if (line.max_weight != null && milli >= Math.round(line.max_weight * 1000)) return null;
  const extra = Math.ceil((milli - min) / 1000);
  const price = line.base_cents + line.per_unit_cents * extra;
  if (!isAmount(price)) return null;
  return { line, chargeable_kg: chargeable, volumetric_kg: volumetric, units: milli / 1000, extra_units: extra, price_cents: price };
}

function specificity(line: RateLine): number {
  return (line.zone_id != null ? 2 : 0) + (line.package_type_id != null ? 1 : 0);
}

/**
 * The line that prices a parcel: among those whose zone, package type and weight band fit, the most
 * specific (zone beats package type beats neither), then the narrowest band (highest start), then
 * the oldest line, so the answer never depends on row order.
 */
export function selectRate(lines: readonly RateLine[], p: Parcel): PricedLine | null {
  let best: PricedLine | null = null;
  for (const line of lines) {
    if (line.zone_id != null && line.zone_id !== (p.zone_id ?? null)) continue;
    if (line.package_type_id != null && line.package_type_id !== (p.package_type_id ?? null)) continue;
    const priced = priceOnLine(line, p);
    if (!priced) continue;
    if (!best || better(line, best.line)) best = priced;
  }
  return best;
}

function better(a: RateLine, b: RateLine): boolean {
  const s = specificity(a) - specificity(b);
  if (s !== 0) return s > 0;
  if (a.min_weight !== b.min_weight) return a.min_weight > b.min_weight;
  return a.id < b.id;
}

// ---------------------------------------------------------------------------------------------
// Ledger

export interface WalletState {
  billing: Billing;
  balance_cents: number;
  credit_limit_cents: number | null;
}

/**
 * Whether a debit may be taken: a prepaid wallet never goes below zero, a postpaid one not below its
 * credit limit (when it has one).
 */
export function canDebit(w: WalletState, amount: number): boolean {
  if (!isAmount(amount) || amount < 0) return false;
  const after = w.balance_cents - amount;
  if (w.billing === 'prepaid') return after >= 0;
  return w.credit_limit_cents == null || after >= -w.credit_limit_cents;
}

/** The balance after posting a signed amount, refusing anything that would leave safe integers. */
export function post(balance: number, signed: number): number {
  const after = balance + signed;
  if (!Number.isSafeInteger(after) || !isAmount(signed)) throw new RangeError('amount out of range');
  return after;
}

/** How much a wallet could still spend: prepaid its balance, postpaid down to its limit (null = unlimited). */
export function available(w: WalletState): number | null {
  if (w.billing === 'prepaid') return Math.max(0, w.balance_cents);
  return w.credit_limit_cents == null ? null : w.balance_cents + w.credit_limit_cents;
}

/** The sum of signed amounts; the ledger's one definition of a balance. */
export function sumOf(amounts: readonly { amount_cents: number }[]): number {
  return amounts.reduce((s, t) => s + t.amount_cents, 0);
}

// ---------------------------------------------------------------------------------------------
// Invoices

export const INVOICE_KINDS = ['statement', 'receipt', 'adjustment'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
export const INVOICE_STATUSES = ['issued', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** Only an issued invoice changes status, and only to paid or void; nothing else about it ever changes. */
export function canChangeInvoice(from: InvoiceStatus, to: InvoiceStatus): boolean {
  return from === 'issued' && (to === 'paid' || to === 'void');
}

export function invoiceNumber(year: number, seq: number): string {
  return `INV-${year}-${String(seq).padStart(6, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Driver earnings

export interface DriverRateLine {
  id: number;
  driver_id: number | null;
  zone_id: number | null;
  package_type_id: number | null;
  amount_cents: number;
  currency: string;
  effective_from: number;
  effective_to: number | null;
}

export interface DeliveredParcel {
  driver_id: number;
  zone_id: number | null;
  package_type_id: number | null;
  delivered_at: number;
}

function driverSpecificity(r: DriverRateLine): number {
  return (r.driver_id != null ? 4 : 0) + (r.zone_id != null ? 2 : 0) + (r.package_type_id != null ? 1 : 0);
}

/**
 * The rate in force when a parcel was delivered: its window holds the delivery time, its driver,
 * zone and package type fit; the most specific wins (driver, then zone, then package type), then
 * the most recently started, then the newest line.
 */
export function driverRateFor(rates: readonly DriverRateLine[], d: DeliveredParcel): DriverRateLine | null {
  let best: DriverRateLine | null = null;
  for (const r of rates) {
    if (d.delivered_at < r.effective_from || (r.effective_to != null && d.delivered_at >= r.effective_to)) continue;
    if (r.driver_id != null && r.driver_id !== d.driver_id) continue;
    if (r.zone_id != null && r.zone_id !== d.zone_id) continue;
    if (r.package_type_id != null && r.package_type_id !== d.package_type_id) continue;
    if (!best) {
      best = r;
      continue;
    }
    const s = driverSpecificity(r) - driverSpecificity(best);
    if (s > 0 || (s === 0 && (r.effective_from > best.effective_from || (r.effective_from === best.effective_from && r.id > best.id))))
      best = r;
  }
  return best;
}
