import { describe, expect, it } from 'vitest';
import { formatAbn, gstForLine, gstForLines, isValidAbn } from '../../shared/gst';

describe('GST in integer cents', () => {
  it('takes GST out of an inclusive amount, rounded half-up per line', () => {
    expect(gstForLine(1100, 1000, true)).toEqual({ excl_cents: 1000, gst_cents: 100, incl_cents: 1100 });
    expect(gstForLine(1000, 1000, true)).toEqual({ excl_cents: 909, gst_cents: 91, incl_cents: 1000 }); // 90.909...
    expect(gstForLine(1234, 1000, true)).toEqual({ excl_cents: 1122, gst_cents: 112, incl_cents: 1234 }); // 112.18...
    // A credit mirrors its charge exactly.
    expect(gstForLine(-1000, 1000, true)).toEqual({ excl_cents: -909, gst_cents: -91, incl_cents: -1000 });
    expect(gstForLine(1000, 0, true)).toEqual({ excl_cents: 1000, gst_cents: 0, incl_cents: 1000 });
  });

  it('adds GST to an exclusive amount; exact halves round up (away from zero)', () => {
    expect(gstForLine(1000, 1000, false)).toEqual({ excl_cents: 1000, gst_cents: 100, incl_cents: 1100 });
    expect(gstForLine(5, 1000, false).gst_cents).toBe(1); // 0.5
    expect(gstForLine(15, 1000, false).gst_cents).toBe(2); // 1.5
    expect(gstForLine(4, 1000, false).gst_cents).toBe(0); // 0.4
    expect(gstForLine(-5, 1000, false).gst_cents).toBe(-1);
    expect(gstForLine(1, 1500, false).gst_cents).toBe(0); // 0.15
    // Large amounts stay exact (no floating point on the way).
    expect(gstForLine(99_999_999_999, 1000, false).gst_cents).toBe(10_000_000_000);
  });

  it('totals are the sums of the rounded lines, not GST of the total', () => {
    const { lines, total } = gstForLines([1004, 1004, 1004], 1000, true);
    expect(lines.map((l) => l.gst_cents)).toEqual([91, 91, 91]);
    expect(total).toEqual({ excl_cents: 2739, gst_cents: 273, incl_cents: 3012 });
    expect(gstForLine(3012, 1000, true).gst_cents).toBe(274); // what rounding the total would give
    expect(gstForLines([], 1000, true).total).toEqual({ excl_cents: 0, gst_cents: 0, incl_cents: 0 });
  });

  it('refuses fractions of a cent and impossible rates', () => {
    expect(() => gstForLine(10.5, 1000, true)).toThrow(RangeError);
    expect(() => gstForLine(100, -1, true)).toThrow(RangeError);
    expect(() => gstForLine(100, 10_001, true)).toThrow(RangeError);
  });
});

describe('ABN checksum', () => {
  it('accepts real ABNs with or without spaces and refuses a changed digit', () => {
    expect(isValidAbn('51 824 753 556')).toBe(true); // the ATO's own
    expect(isValidAbn('53004085616')).toBe(true);
    expect(isValidAbn('51 824 753 557')).toBe(false);
    expect(isValidAbn('5182475355')).toBe(false);
    expect(isValidAbn('5182475355a')).toBe(false);
    expect(formatAbn('51824753556')).toBe('51 824 753 556');
  });
});
