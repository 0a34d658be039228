import { describe, expect, it } from 'vitest';
import { clock, dateTime, day, shortDateTime } from '../../client/ui/when';

// 17:50:47 on the machine's own clock: the office's screens write it on a 24-hour clock, as the board does.
const evening = new Date(2026, 10, 28, 17, 50, 47);

describe("the office's instants", () => {
  it('write the time on a 24-hour clock, never "5:50 pm"', () => {
    expect(clock(evening)).toBe('17:50:47');
    for (const text of [dateTime(evening.toISOString()), shortDateTime(evening.toISOString())]) {
      expect(text).toContain('17:50');
      expect(text).not.toMatch(/[ap]\.?m\.?/i);
    }
  });

  it('read a bare day as that calendar day and say so when there is nothing to show', () => {
    expect(day('2026-11-28')).toBe(new Date(2026, 10, 28).toLocaleDateString());
    expect(dateTime(null)).toBe('—');
    expect(dateTime('not a date', 'never')).toBe('never');
    expect(shortDateTime(undefined)).toBe('—');
  });
});
