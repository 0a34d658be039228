/** Issue 36: a driver's week pattern becomes dated shifts, Monday first, whatever day the week is picked from. */
import { describe, expect, it } from 'vitest';
import { defaultPattern, expandPattern, mondayOf } from '../../client/admin/fleet/weekPattern';
import { eventLabel } from '../../client/admin/packages/actions/eventLabel';
import { TEMPLATE_COLUMNS, templateCsv } from '../../client/admin/packages/uploadTemplate';
import { PackageCreate } from '../../shared/schemas/package';

describe('week pattern', () => {
  it('finds the Monday of any day, across months and years', () => {
    expect(mondayOf('2026-12-02')).toBe('2026-11-30');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
    expect(mondayOf('2027-01-03')).toBe('2026-12-28');
  });
  it('makes one shift per working day for each week, and names bad days instead', () => {
    const pattern = defaultPattern();
    pattern[5] = { works: true, start: '08:00', end: '12:00' };
    const { shifts, problems } = expandPattern(pattern, '2026-12-03', 2);
    expect(problems).toEqual([]);
    expect(shifts).toHaveLength(12);
    expect(shifts[0]).toEqual({ date: '2026-11-30', start_time: '07:00', end_time: '15:00' });
    expect(shifts.at(-1)).toEqual({ date: '2026-12-12', start_time: '08:00', end_time: '12:00' });
    pattern[1] = { works: true, start: '15:00', end: '07:00' };
    pattern[2] = { works: true, start: '7am', end: '15:00' };
    expect(expandPattern(pattern, '2026-12-03', 1)).toEqual({
      shifts: [],
      problems: ['Tuesday: the shift ends before it starts', 'Wednesday: times as HH:MM, e.g. 07:30'],
    });
  });
});

describe('smaller office items', () => {
  it('history lines never show a raw event name', () => {
    expect(eventLabel('route_add', 'Assigned')).toBe('Added to a route');
    expect(eventLabel('some_new_step', null)).toBe('Some new step');
    expect(eventLabel('delivered', 'Delivered')).toBe('Delivered');
    // Issue 36: the office's hand-set status, refusals and placing by new master data read as sentences too.
    expect(eventLabel('status_change', 'Received at depot')).toBe('Set by the office to Received at depot');
    expect(eventLabel('cancel_rejected', null)).toBe('Cancellation refused');
    expect(eventLabel('some_step_rejected', null)).toBe('Some step refused');
    expect(eventLabel('placed', 'Created')).toBe('Placed when its suburb or postcode was added');
  });
  it('the upload template names only columns an upload reads', () => {
    const writable = new Set([...Object.keys(PackageCreate.shape), 'window_start', 'window_end', 'service_s']);
    for (const c of TEMPLATE_COLUMNS) expect(writable.has(c), c).toBe(true);
    expect(templateCsv().split('\r\n')[0]).toContain('recipient_email');
  });
});
