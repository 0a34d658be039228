/**
 * Issue 31, section 2: which fixes the phone keeps (moved 50 m or a minute passed, nothing vague or
 * out of order) and when it reports at all (on duty only). The sending itself is the browser test's
 * (test/browser/positions.test.ts) and the server's (test/server/driver-positions-live.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { MIN_INTERVAL_MS, onDuty, phoneDay, worthKeeping, type Reading } from '../../client/driver/positions';

const t0 = Date.parse('2026-03-02T09:00:00+11:00');
const fix = (lat: number, lng: number, s: number, accuracy = 10): Reading => ({
  latitude: lat,
  longitude: lng,
  accuracy,
  occurred_at: new Date(t0 + s * 1000).toISOString(),
});

describe('van positions on the phone', () => {
  it('keeps a fix when the van moved 50 m or a minute passed', () => {
    const here = fix(-33.8688, 151.2093, 0);
    expect(worthKeeping(null, here)).toBe(true);
    // ~33 m north, 10 s later: not yet.
    expect(worthKeeping(here, fix(-33.8685, 151.2093, 10))).toBe(false);
    // ~67 m north: kept.
    expect(worthKeeping(here, fix(-33.8682, 151.2093, 10))).toBe(true);
    // Standing still for a minute: kept, so the office sees the van is alive.
    expect(worthKeeping(here, fix(-33.8688, 151.2093, MIN_INTERVAL_MS / 1000))).toBe(true);
    expect(worthKeeping(here, fix(-33.8688, 151.2093, MIN_INTERVAL_MS / 1000 - 1))).toBe(false);
    // A cell-tower guess, or a fix older than the last kept one: dropped.
    expect(worthKeeping(here, fix(-33.8, 151.2093, 120, 5000))).toBe(false);
    expect(worthKeeping(here, fix(-33.8, 151.2093, -5))).toBe(false);
  });

  it('is on duty with a parcel on the van or a route of today running, and only then', () => {
    const today = phoneDay(new Date(2026, 2, 2, 9, 0));
    expect(today).toBe('2026-03-02');
    expect(onDuty([{ status: 'assigned' }], [{ status: 'planned', date: today }], today)).toBe(false);
    expect(onDuty([{ status: 'assigned' }, { status: 'out_for_delivery' }], [], today)).toBe(true);
    expect(onDuty([{ status: 'delivered' }], [{ status: 'in_progress', date: today }], today)).toBe(true);
    // Yesterday's route left running, nothing on the van: off duty.
    expect(onDuty([{ status: 'delivered' }], [{ status: 'in_progress', date: '2026-03-01' }], today)).toBe(false);
  });
});
