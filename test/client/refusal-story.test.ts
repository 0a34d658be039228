/**
 * What the driver's phone says about a refused action (client/driver/refusal.ts), from the server's
 * reason code (test/server/scan-reasons.test.ts shows the server sends each) and what the phone knows.
 * Issue 35: every refusal used to say "given to another driver, bring it back to the depot".
 */
import { describe, expect, it } from 'vitest';
import { hadParcel, retryOffered, storyOf, storyOfRow } from '../../client/driver/refusal';
import type { PackageStatus } from '../../shared/lifecycle';
import type { OutboxRow, Rejection } from '../../client/sync/index';

const LOAD = 'scan-package-api/inbound-scan/';
const DELIVER = 'package-delivered/7/deliver/';
const FAIL = 'package-delivered/7/fail/';
const refused = (status: number, code: string, details: Record<string, unknown>): Rejection => ({
  status,
  code,
  message: 'refused',
  details,
});

const unknown = refused(404, 'not_found', { barcode: 'ZZ1', reason: 'unknown_code' });
const misread = refused(404, 'not_found', { barcode: 'MO100108', reason: 'misread' });
const notYours = refused(409, 'conflict', { hawb: 'X1', reason: 'not_yours' });
const reassigned = refused(409, 'conflict', { hawb: 'X1', reason: 'reassigned' });
const cancelled = refused(409, 'invalid_transition', { status: 'cancelled', reason: 'final' });
const delivered = refused(409, 'invalid_transition', { status: 'delivered', reason: 'final' });

const bringBack = /bring it back to the depot/i;

describe('refusal stories', () => {
  it('an unknown code: check and scan again, leave it at the depot; never "another driver" or "bring it back"', () => {
    const s = storyOf(unknown, LOAD, { hadIt: false });
    expect(s.what).toBe('No parcel has this code.');
    expect(s.todo).toMatch(/scan it again/);
    expect(`${s.what} ${s.todo}`).not.toMatch(/another driver|bring it back/i);
    // An older server without reasons: a scan's 404 still reads as an unknown code.
    expect(storyOf(refused(404, 'not_found', {}), LOAD).what).toBe('No parcel has this code.');
  });

  it('a misread (cut-short) code: scan again, nothing recorded', () => {
    const s = storyOf(misread, LOAD, { hadIt: false });
    expect(s.what).toMatch(/read only part of the label/);
    expect(s.todo).toBe('Scan the label again. Nothing was recorded.');
    expect(s.keepParcel).toBe(false);
  });

  it('not yours: never had it means do not load it; had it (reassigned) means bring it back', () => {
    const never = storyOf(notYours, LOAD, { hadIt: false });
    expect(never.todo).not.toMatch(bringBack);
    expect(never.todo).toMatch(/Do not load it/);
    const was = storyOf(reassigned, LOAD, { hadIt: true });
    expect(was.what).toBe('The office gave this parcel to another driver.');
    expect(was.todo).toMatch(bringBack);
    // The phone's own knowledge counts too: a not_yours for a parcel the phone had is a reassignment.
    expect(storyOf(notYours, FAIL).todo).toMatch(bringBack);
  });

  it('a delivery refused after a reassignment never says bring it back (it was handed over)', () => {
    const s = storyOf(reassigned, DELIVER);
    expect(s.todo).not.toMatch(bringBack);
    expect(s.todo).toMatch(/Call the office/);
  });

  it('cancelled: says cancelled on the stop and in Sync alike, whatever reason the refusal gave', () => {
    // The refusal said "reassigned" but the phone's copy (the latest pull) says cancelled: one story.
    const sync = storyOf(reassigned, FAIL, { status: 'cancelled' });
    const stop = storyOf(cancelled, FAIL, { status: 'cancelled', hadIt: true });
    expect(sync.what).toBe('The office cancelled this parcel.');
    expect(stop).toEqual(sync);
    expect(sync.what).not.toMatch(/another driver/);
    // A parcel the phone never had is never to be brought back.
    expect(storyOf(cancelled, LOAD, { hadIt: false }).todo).not.toMatch(bringBack);
  });

  it('already final (delivered): a delivery says a supervisor will check; no red "bring it back" beside "Delivered"', () => {
    const s = storyOf(reassigned, DELIVER, { status: 'delivered' });
    expect(s.what).toBe('This parcel was already recorded as delivered.');
    expect(s.todo).not.toMatch(bringBack);
    expect(storyOf(delivered, LOAD, { hadIt: false }).todo).not.toMatch(bringBack);
  });

  it('whether the phone had the parcel: deliveries and failures yes, a scan only of a parcel on its list', () => {
    const row = (path: string, packageId?: number) => ({
      path,
      effect: packageId != null ? { packageId, patch: {} } : { hawb: 'X1', patch: {} },
    });
    expect(hadParcel(row(DELIVER, 7))).toBe(true);
    expect(hadParcel(row(LOAD))).toBe(false);
    expect(hadParcel(row(LOAD, 7))).toBe(true);
    const r = { ...row(LOAD), rejection: notYours } as unknown as OutboxRow;
    expect(storyOfRow(r).todo).toMatch(/Do not load it/);
  });
  it('a pickup refused at the point: why, and the parcel stays at the pickup point (never the depot)', () => {
    const PICKUP = 'pickup-point-scan/package-scan/';
    const cases: [Rejection, RegExp][] = [
      [refused(409, 'conflict', { barcode: 'P1', reason: 'pickup_point_not_scanned' }), /QR code/],
      [refused(409, 'conflict', { pickup_point: 3, reason: 'wrong_pickup_point' }), /another pickup point/],
      [refused(409, 'conflict', { barcode: 'P1', reason: 'not_assigned' }), /not assigned to you/],
      [notYours, /Another driver collects/],
      [unknown, /No parcel has this code/],
      [misread, /only part of the label/],
      [refused(409, 'invalid_transition', { status: 'cancelled', reason: 'final' }), /cancelled this pickup/],
    ];
    for (const [r, what] of cases) {
      const s = storyOf(r, PICKUP);
      expect(s.what).toMatch(what);
      expect(`${s.what} ${s.todo}`).not.toMatch(/depot/i);
      expect(s.keepParcel).toBe(false);
    }
  });
});

describe('Retry on a refused action', () => {
  const copy = (status: PackageStatus, attempts = 0, is_scanned = false) => ({ status, attempts, is_scanned, assigned_to_id: 5 });
  it('is not offered where the shared rules would refuse it again on the phone’s copy', () => {
    // Two failed attempts of two: the parcel only goes back to the depot, a load is refused again.
    expect(retryOffered({ path: LOAD, rejection: null }, copy('failed', 2), 2)).toBe(false);
    expect(retryOffered({ path: DELIVER, rejection: null }, copy('cancelled'), 2)).toBe(false);
    // A failure refused before loading: still refused until the parcel is scanned onto the van.
    expect(retryOffered({ path: FAIL, rejection: null }, copy('assigned'), 2)).toBe(false);
    // Cancelled at the office: the parcel left the phone's list, and the server said its state is final.
    expect(retryOffered({ path: DELIVER, rejection: cancelled }, null, 2)).toBe(false);
  });
  it('is offered where the rules now allow it, or where only the server can judge', () => {
    expect(retryOffered({ path: FAIL, rejection: null }, copy('out_for_delivery', 0, true), 2)).toBe(true);
    expect(retryOffered({ path: LOAD, rejection: null }, copy('failed', 1), 2)).toBe(true);
    expect(retryOffered({ path: LOAD, rejection: unknown }, null, 2)).toBe(true);
    expect(retryOffered({ path: 'pickup-point-scan/', rejection: notYours }, copy('cancelled'), 2)).toBe(true);
  });
});
