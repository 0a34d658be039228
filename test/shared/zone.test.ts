import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  isDay,
  isTimeZone,
  localClock,
  localDay,
  localDayRange,
  localDaysRange,
  localTimeToInstant,
  monthOf,
  offsetAt,
  resolveLocalTime,
  startOfLocalDay,
} from '../../shared/time/zone';

const at = (iso: string) => Date.parse(iso);
const H = 3_600_000;
const SYD = 'Australia/Sydney';
const ADL = 'Australia/Adelaide';
const PER = 'Australia/Perth';

describe('zone names', () => {
  it('knows IANA names and refuses offsets and nonsense', () => {
    expect(isTimeZone(SYD)).toBe(true);
    expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('+10:00')).toBe(false);
    expect(isTimeZone('Australia/Gotham')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
  it('checks days', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-2-1')).toBe(false);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-04-01', '2026-04-08')).toBe(7);
    expect(monthOf('2028-02-10')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
  });
});

describe('Sydney, daylight saving ends (first Sunday of April 2026: 03:00 AEDT becomes 02:00 AEST)', () => {
  it('the day is 25 hours long', () => {
    const { start, end } = localDayRange('2026-04-05', SYD);
    expect(new Date(start).toISOString()).toBe('2026-04-04T13:00:00.000Z');
    expect(new Date(end).toISOString()).toBe('2026-04-05T14:00:00.000Z');
    expect(end - start).toBe(25 * H);
  });
  it('02:30 happens twice: earlier by default, later on request, refused when asked', () => {
    const r = resolveLocalTime('2026-04-05', '02:30', SYD);
    expect(r.kind).toBe('overlap');
    expect(r.instants.map((t) => new Date(t).toISOString())).toEqual(['2026-04-04T15:30:00.000Z', '2026-04-04T16:30:00.000Z']);
    expect(localTimeToInstant('2026-04-05', '02:30', SYD)).toBe(at('2026-04-04T15:30:00Z'));
    expect(localTimeToInstant('2026-04-05', '02:30', SYD, { overlap: 'later' })).toBe(at('2026-04-04T16:30:00Z'));
    expect(() => localTimeToInstant('2026-04-05', '02:30', SYD, { overlap: 'reject' })).toThrow(RangeError);
  });
  it('a shift 07:00 to 17:00 that day is 10 wall hours and 10 real hours (after the change)', () => {
    const a = localTimeToInstant('2026-04-05', '07:00', SYD);
    const b = localTimeToInstant('2026-04-05', '17:00', SYD);
    expect(new Date(a).toISOString()).toBe('2026-04-04T21:00:00.000Z');
    expect(b - a).toBe(10 * H);
    expect(localClock(a, SYD)).toBe('07:00');
  });
  it('offsets either side', () => {
    expect(offsetAt(at('2026-04-04T15:59:00Z'), SYD)).toBe(660);
    expect(offsetAt(at('2026-04-04T16:00:00Z'), SYD)).toBe(600);
  });
});

describe('Sydney, daylight saving starts (first Sunday of October 2026: 02:00 AEST becomes 03:00 AEDT)', () => {
  it('the day is 23 hours long', () => {
    const { start, end } = localDayRange('2026-10-04', SYD);
    expect(new Date(start).toISOString()).toBe('2026-10-03T14:00:00.000Z');
    expect(new Date(end).toISOString()).toBe('2026-10-04T13:00:00.000Z');
    expect(end - start).toBe(23 * H);
  });
  it('02:30 does not exist: moved forward to 03:30 by default, back to 01:30 or refused on request', () => {
    expect(resolveLocalTime('2026-10-04', '02:30', SYD).kind).toBe('gap');
    const later = localTimeToInstant('2026-10-04', '02:30', SYD);
    expect(new Date(later).toISOString()).toBe('2026-10-03T16:30:00.000Z');
    expect(localClock(later, SYD)).toBe('03:30');
    expect(localClock(localTimeToInstant('2026-10-04', '02:30', SYD, { gap: 'earlier' }), SYD)).toBe('01:30');
    expect(() => localTimeToInstant('2026-10-04', '02:30', SYD, { gap: 'reject' })).toThrow(RangeError);
  });
  it('01:59 and 03:00 are one real minute apart', () => {
    expect(localTimeToInstant('2026-10-04', '03:00', SYD) - localTimeToInstant('2026-10-04', '01:59', SYD)).toBe(60_000);
  });
  it('a 07:00 shift is 20:00 UTC the day before in summer and 21:00 in winter', () => {
    expect(new Date(localTimeToInstant('2026-10-05', '07:00', SYD)).toISOString()).toBe('2026-10-04T20:00:00.000Z');
    expect(new Date(localTimeToInstant('2026-10-03', '07:00', SYD)).toISOString()).toBe('2026-10-02T21:00:00.000Z');
  });
});

describe('Adelaide: half-hour offsets (+9:30 winter, +10:30 summer)', () => {
  it('offsets and day boundaries', () => {
    expect(offsetAt(at('2026-07-01T00:00:00Z'), ADL)).toBe(570);
    expect(offsetAt(at('2026-01-01T00:00:00Z'), ADL)).toBe(630);
    expect(new Date(startOfLocalDay('2026-07-01', ADL)).toISOString()).toBe('2026-06-30T14:30:00.000Z');
    expect(new Date(startOfLocalDay('2026-01-15', ADL)).toISOString()).toBe('2026-01-14T13:30:00.000Z');
  });
  it('its daylight saving days too (same Sundays as Sydney)', () => {
    expect(localDayRange('2026-04-05', ADL).end - localDayRange('2026-04-05', ADL).start).toBe(25 * H);
    expect(localDayRange('2026-10-04', ADL).end - localDayRange('2026-10-04', ADL).start).toBe(23 * H);
    expect(resolveLocalTime('2026-10-04', '02:15', ADL).kind).toBe('gap');
  });
  it('the local day of an instant follows the half hour', () => {
    // 14:29 UTC is 23:59 in Adelaide in winter; 14:30 is the next day.
    expect(localDay(at('2026-06-30T14:29:00Z'), ADL)).toBe('2026-06-30');
    expect(localDay(at('2026-06-30T14:30:00Z'), ADL)).toBe('2026-07-01');
    expect(localClock(at('2026-06-30T14:30:00Z'), ADL)).toBe('00:00');
  });
});

describe('Perth: no daylight saving (+8 all year)', () => {
  it("keeps 24-hour days on Sydney's change days", () => {
    for (const d of ['2026-04-05', '2026-10-04', '2026-01-10', '2026-07-10']) {
      const { start, end } = localDayRange(d, PER);
      expect(end - start).toBe(24 * H);
      expect(new Date(start).toISOString()).toBe(`${addDays(d, -1)}T16:00:00.000Z`);
    }
  });
  it('the same instant is a different wall time in Perth and Sydney', () => {
    const t = at('2026-01-10T01:00:00Z');
    expect(localClock(t, PER)).toBe('09:00');
    expect(localClock(t, SYD)).toBe('12:00');
  });
});

describe('a local day spanning UTC midnight', () => {
  it('Sydney in summer: a morning and an afternoon delivery fall on one local day but two UTC days', () => {
    const morning = at('2026-01-09T22:30:00Z'); // 09:30 on the 10th in Sydney
    const afternoon = at('2026-01-10T04:00:00Z'); // 15:00 on the 10th
    expect(new Date(morning).toISOString().slice(0, 10)).not.toBe(new Date(afternoon).toISOString().slice(0, 10));
    expect(localDay(morning, SYD)).toBe('2026-01-10');
    expect(localDay(afternoon, SYD)).toBe('2026-01-10');
    const { start, end } = localDayRange('2026-01-10', SYD);
    expect(start <= morning && morning < end && start <= afternoon && afternoon < end).toBe(true);
    expect(new Date(start).toISOString()).toBe('2026-01-09T13:00:00.000Z');
  });
  it('a week of local days is contiguous across a change of offset', () => {
    const { start, end } = localDaysRange('2026-04-01', '2026-04-07', SYD);
    expect(end - start).toBe(7 * 24 * H + H);
    let d = '2026-04-01';
    let prevEnd = start;
    for (let i = 0; i < 7; i++, d = addDays(d, 1)) {
      const r = localDayRange(d, SYD);
      expect(r.start).toBe(prevEnd);
      prevEnd = r.end;
    }
    expect(prevEnd).toBe(end);
  });
  it('UTC itself works as a zone', () => {
    expect(localDayRange('2026-01-10', 'UTC').start).toBe(at('2026-01-10T00:00:00Z'));
  });
});
