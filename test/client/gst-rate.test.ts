/** The business-profile screen types the GST rate as a percentage and sends basis points. */
import { describe, expect, it } from 'vitest';
import { gstPercentText, parseGstPercent } from '../../client/admin/settings/gstRate';

describe('GST rate as typed', () => {
  it('turns percentages into basis points by string arithmetic', () => {
    expect(parseGstPercent('10')).toBe(1000);
    expect(parseGstPercent(' 12.5 ')).toBe(1250);
    expect(parseGstPercent('7.25 %')).toBe(725);
    expect(parseGstPercent('12.35')).toBe(1235); // 12.35 * 100 is 1234.9999999999998 in floats
    expect(parseGstPercent('0')).toBe(0);
    expect(parseGstPercent('100')).toBe(10_000);
  });
  it('refuses what it cannot store exactly', () => {
    for (const bad of ['', '10.125', '100.01', '-1', 'ten', '1e1', '10,5', '.5']) expect(parseGstPercent(bad), bad).toBeNull();
  });
  it('shows basis points as the shortest percentage and reads it back', () => {
    expect([1000, 1250, 725, 5, 0, 10_000].map(gstPercentText)).toEqual(['10', '12.5', '7.25', '0.05', '0', '100']);
    for (let bp = 0; bp <= 10_000; bp += 7) expect(parseGstPercent(gstPercentText(bp))).toBe(bp);
  });
});
