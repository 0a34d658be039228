import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canChangeInvoice,
  canDebit,
  chargeableKg,
  driverRateFor,
  formatMinor,
  invoiceNumber,
  post,
  priceOnLine,
  selectRate,
  sumOf,
  volumetricKg,
  type DriverRateLine,
  type RateLine,
  type WalletState,
} from '../../shared/money';

const line = (over: Partial<RateLine> & { id: number }): RateLine => ({
  zone_id: null,
  package_type_id: null,
  kg_factor: 1,
  min_weight: 0,
  max_weight: null,
  base_cents: 1000,
  per_unit_cents: 0,
  volumetric_divisor: 5000,
  ...over,
});

describe('formatting money', () => {
  it('formats minor units exactly', () => {
    expect(formatMinor(1250, 'AUD')).toBe('12.50');
    expect(formatMinor(-5, 'AUD')).toBe('-0.05');
    expect(formatMinor(1250, 'JPY')).toBe('1250');
    expect(formatMinor(1, 'KWD')).toBe('0.001');
  });
  it('round-trips every safe amount', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (c) => Math.round(Number(formatMinor(c, 'AUD')) * 100) === c));
  });
  it('numbers invoices with six digits', () => expect(invoiceNumber(2026, 42)).toBe('INV-2026-000042'));
  it('lets only an issued invoice become paid or void', () => {
    expect(canChangeInvoice('issued', 'paid')).toBe(true);
    expect(canChangeInvoice('issued', 'void')).toBe(true);
    expect(canChangeInvoice('paid', 'void')).toBe(false);
    expect(canChangeInvoice('void', 'paid')).toBe(false);
    expect(canChangeInvoice('issued', 'issued')).toBe(false);
  });
});

describe('pricing', () => {
  it('bills the larger of actual and volumetric weight', () => {
    expect(volumetricKg({ length: 50, width: 40, height: 30 })).toBe(12);
    expect(chargeableKg({ weight: 3, length: 10, width: 10, height: 10 })).toBe(3);
    expect(chargeableKg({ weight: 1, length: 50, width: 40, height: 30 }, 6000)).toBe(10);
    expect(chargeableKg({})).toBe(0);
  });

  it('chargeable weight is never below either weight', () => {
    const dim = fc.double({ min: 0, max: 300, noNaN: true });
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1000, noNaN: true }), dim, dim, dim, (w, l, wd, h) => {
        const c = chargeableKg({ weight: w, length: l, width: wd, height: h });
        return (
          c >= w - 1e-6 && c >= volumetricKg({ length: l, width: wd, height: h }) - 1e-6 && c <= Math.max(w, (l * wd * h) / 5000) + 0.001
        );
      }),
    );
  });

  it('bands are start-inclusive and end-exclusive; extra units are started units above the start', () => {
    const l = line({ id: 1, min_weight: 5, max_weight: 10, base_cents: 1000, per_unit_cents: 200 });
    expect(priceOnLine(l, { weight: 4.999 })).toBeNull();
    expect(priceOnLine(l, { weight: 5 })?.price_cents).toBe(1000);
    expect(priceOnLine(l, { weight: 5.001 })?.price_cents).toBe(1200);
    expect(priceOnLine(l, { weight: 9.999 })?.price_cents).toBe(2000);
    expect(priceOnLine(l, { weight: 10 })).toBeNull();
  });

  it('a heavier parcel never costs less on the same line', () => {
    const arb = fc.record({
      base: fc.integer({ min: 0, max: 100_000 }),
      per: fc.integer({ min: 0, max: 10_000 }),
      factor: fc.constantFrom(1, 0.45359237, 0.001),
    });
    fc.assert(
      fc.property(
        arb,
        fc.double({ min: 0, max: 500, noNaN: true }),
        fc.double({ min: 0, max: 500, noNaN: true }),
        ({ base, per, factor }, a, b) => {
          const l = line({ id: 1, base_cents: base, per_unit_cents: per, kg_factor: factor });
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const pl = priceOnLine(l, { weight: lo });
          const ph = priceOnLine(l, { weight: hi });
          return pl != null && ph != null && Number.isSafeInteger(ph.price_cents) && ph.price_cents >= pl.price_cents;
        },
      ),
    );
  });

  it('the chosen line does not depend on the order lines are read in, and is the most specific that fits', () => {
    const arbLine = fc.record({
      zone_id: fc.constantFrom(null, 1, 2),
      package_type_id: fc.constantFrom(null, 7),
      min_weight: fc.constantFrom(0, 1, 5),
      max_weight: fc.constantFrom(null, 5, 20),
      base_cents: fc.integer({ min: 0, max: 5000 }),
    });
    const parcel = fc.record({
      zone_id: fc.constantFrom(null, 1, 2),
      package_type_id: fc.constantFrom(null, 7),
      weight: fc.double({ min: 0, max: 30, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(arbLine, { maxLength: 8 }), parcel, fc.integer(), (raw, p, seed) => {
        const lines = raw.map((r, i) => line({ ...r, id: i + 1 })).filter((l) => l.max_weight == null || l.max_weight > l.min_weight);
        const shuffled = [...lines].sort((a, b) => ((a.id * 7919 + seed) % 13) - ((b.id * 7919 + seed) % 13));
        const x = selectRate(lines, p);
        const y = selectRate(shuffled, p);
        if (x?.line.id !== y?.line.id) return false;
        if (!x)
          return lines.every(
            (l) =>
              (l.zone_id != null && l.zone_id !== p.zone_id) ||
              (l.package_type_id != null && l.package_type_id !== p.package_type_id) ||
              priceOnLine(l, p) == null,
          );
        const spec = (l: RateLine) => (l.zone_id != null ? 2 : 0) + (l.package_type_id != null ? 1 : 0);
        return lines.every((l) => {
          const fits =
            (l.zone_id == null || l.zone_id === p.zone_id) &&
            (l.package_type_id == null || l.package_type_id === p.package_type_id) &&
            priceOnLine(l, p) != null;
          return !fits || spec(l) <= spec(x.line);
        });
      }),
    );
  });
});

describe('ledger rules', () => {
  type Op = { kind: 'credit' | 'debit'; amount: number };
  const ops = fc.array(
    fc.record({ kind: fc.constantFrom<'credit' | 'debit'>('credit', 'debit'), amount: fc.integer({ min: 1, max: 1_000_000 }) }),
    { maxLength: 60 },
  );

  it('a prepaid wallet never goes below zero and its balance is the sum of what was posted', () => {
    fc.assert(
      fc.property(
        ops,
        fc.constantFrom<WalletState['billing']>('prepaid', 'postpaid'),
        fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: null }),
        (list: Op[], billing, limit) => {
          const w: WalletState = { billing, balance_cents: 0, credit_limit_cents: limit };
          const posted: { amount_cents: number }[] = [];
          for (const op of list) {
            if (op.kind === 'debit' && !canDebit(w, op.amount)) continue;
            const signed = op.kind === 'credit' ? op.amount : -op.amount;
            w.balance_cents = post(w.balance_cents, signed);
            posted.push({ amount_cents: signed });
            if (billing === 'prepaid' && w.balance_cents < 0) return false;
            if (billing === 'postpaid' && limit != null && w.balance_cents < -limit) return false;
          }
          return w.balance_cents === sumOf(posted);
        },
      ),
    );
  });

  it('refuses negative, fractional and out-of-range debits', () => {
    const w: WalletState = { billing: 'postpaid', balance_cents: 0, credit_limit_cents: null };
    expect(canDebit(w, -1)).toBe(false);
    expect(canDebit(w, 1.5)).toBe(false);
    expect(canDebit(w, 1e15)).toBe(false);
    expect(() => post(Number.MAX_SAFE_INTEGER, 1)).toThrow(RangeError);
  });
});

describe('driver rates', () => {
  const rate = (over: Partial<DriverRateLine> & { id: number }): DriverRateLine => ({
    driver_id: null,
    zone_id: null,
    package_type_id: null,
    amount_cents: 400,
    currency: 'AUD',
    effective_from: 0,
    effective_to: null,
    ...over,
  });
  it('takes the most specific rate in force at delivery time', () => {
    const rates = [
      rate({ id: 1, amount_cents: 400 }),
      rate({ id: 2, amount_cents: 500, effective_from: 100 }),
      rate({ id: 3, amount_cents: 700, zone_id: 9, effective_to: 200 }),
      rate({ id: 4, amount_cents: 900, driver_id: 5 }),
    ];
    const d = { driver_id: 1, zone_id: 9, package_type_id: null };
    expect(driverRateFor(rates, { ...d, delivered_at: 50 })?.id).toBe(3);
    expect(driverRateFor(rates, { ...d, delivered_at: 250 })?.id).toBe(2);
    expect(driverRateFor(rates, { ...d, zone_id: null, delivered_at: 50 })?.id).toBe(1);
    expect(driverRateFor(rates, { ...d, driver_id: 5, delivered_at: 50 })?.id).toBe(4);
    expect(driverRateFor([rate({ id: 1, effective_from: 100 })], { ...d, delivered_at: 99 })).toBeNull();
  });
  it('does not depend on the order rates are read in', () => {
    const arb = fc.record({
      driver_id: fc.constantFrom(null, 1, 2),
      zone_id: fc.constantFrom(null, 3),
      package_type_id: fc.constantFrom(null, 4),
      effective_from: fc.integer({ min: 0, max: 10 }),
      effective_to: fc.constantFrom(null, 5, 11),
    });
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 8 }), fc.integer({ min: 0, max: 12 }), (raw, at) => {
        const rates = raw.map((r, i) => rate({ ...r, id: i + 1 }));
        const d = { driver_id: 1, zone_id: 3, package_type_id: 4, delivered_at: at };
        return driverRateFor(rates, d)?.id === driverRateFor([...rates].reverse(), d)?.id;
      }),
    );
  });
});
