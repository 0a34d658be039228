import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pkg } from '../../server/db/schema/index';
import { TRACK_LIMIT } from '../../server/services/packages/tracking';
import { makeApp } from '../helpers/app';

type Json = Record<string, unknown>;

async function world() {
  // Days pass on the test clock with one set of logins (idle expiry has its own tests).
  const t = await makeApp({ config: { staffIdleMs: 366 * 24 * 3600_000 } });
  const admin = await t.login('admin');
  const depot = await t.login('depot_manager');
  const d1 = await t.login('driver', { name: 'Dana Driver' });
  const d2 = await t.login('driver');
  const shipper = await t.login('company');
  const otherShipper = await t.login('company');
  const reason = (await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', admin.token, { name: 'Nobody home' })).body.id;
  const parcel = async (hawb: string, extra: Json = {}) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, {
      hawb,
      customer_name: 'Rita Recipient',
      customer_phone: '0400111222',
      postcode_name: 'Fitzroy',
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const assign = async (driver: number, ids: number[]) => {
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver, packages: ids })).status).toBe(200);
  };
  const load = async (hawb: string) =>
    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', d1.token, { barcode: hawb })).status).toBe(200);
  const fail = async (id: number) =>
    expect(
      (await t.json('POST', `/api/package-delivered/${id}/fail/`, d1.token, { failed_delivery_status: reason, note: 'dog on porch' }))
        .status,
    ).toBe(200);
  return { t, admin, depot, d1, d2, shipper, otherShipper, reason, parcel, assign, load, fail };
}

describe('public tracking and the status list', () => {
  it('shows recipient-safe events as JSON and HTML, 404 for unknown numbers, and limits each address', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('T-1');
    await w.assign(w.d1.id, [id]);
    await w.load('T-1');
    await w.fail(id);
    const res = await t.json<{ status: string; suburb: string; events: { status: string; label: string; suburb: string }[] }>(
      'GET',
      '/api/track/T-1/',
      null,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hawb: 'T-1', status: 'failed', status_label: 'Delivery attempted', suburb: 'Fitzroy' });
    expect(res.body.events.map((e) => e.status)).toEqual(['created', 'assigned', 'out_for_delivery', 'failed']);
    expect(JSON.stringify(res.body)).not.toMatch(/Rita|0400111222|Dana|dog|Nobody home/);

    const page = await t.call('GET', '/api/track/T-1/page/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Delivery attempted');
    expect(html).not.toContain('Rita');

    expect((await t.json('GET', '/api/track/NOPE/', null)).status).toBe(404);
    expect((await t.json('GET', '/api/track/bad%20code/', null)).status).toBe(400);
    let last = 200;
    for (let i = 0; i < TRACK_LIMIT; i++) last = (await t.call('GET', '/api/track/T-1/')).status;
    expect(last).toBe(429);
    const limited = await t.call('GET', '/api/track/T-1/');
    expect(limited.headers.get('retry-after')).not.toBeNull();
    t.clock.advance(61_000);
    expect((await t.call('GET', '/api/track/T-1/')).status).toBe(200);
  });

  it('lists statuses with labels and next states for any logged-in user', async () => {
    const w = await world();
    const res = await w.t.json<{
      count: number;
      max_attempts: number;
      results: { value: string; label: string; final: boolean; next: string[] }[];
    }>('GET', '/api/delivery-status/', w.d1.token);
    expect(res.status).toBe(200);
    expect(res.body.max_attempts).toBe(3);
    expect(res.body.results.find((s) => s.value === 'delivered')).toEqual({
      value: 'delivered',
      label: 'Delivered',
      final: true,
      next: [],
    });
    expect(res.body.results.find((s) => s.value === 'failed')?.next).toEqual([
      'out_for_delivery',
      'assigned',
      'returned',
      'returned_to_sender',
    ]);
    expect((await w.t.json('GET', '/api/delivery-status/', null)).status).toBe(401);
  });
});

describe('driver history and day lists', () => {
  it('lists what a driver handled with filters, and tells the whole story of one parcel', async () => {
    const w = await world();
    const { t } = w;
    const a = await w.parcel('H-1');
    const b = await w.parcel('H-2');
    const c = await w.parcel('H-3');
    await w.assign(w.d1.id, [a, b]);
    await w.assign(w.d2.id, [c]);
    await w.load('H-1');
    await w.load('H-2');
    expect(
      (
        await t.json('POST', `/api/package-delivered/${a}/deliver/`, w.d1.token, {
          recipient_name: 'Rita',
          latitude: -37.8,
          longitude: 144.98,
        })
      ).status,
    ).toBe(200);
    await w.fail(b);

    const all = await t.json<{ count: number; results: { package: { hawb: string }; last_action: string }[] }>(
      'GET',
      '/api/history/',
      w.d1.token,
    );
    expect(all.status).toBe(200);
    expect(all.body.results.map((r) => [r.package.hawb, r.last_action])).toEqual([
      ['H-2', 'fail'],
      ['H-1', 'deliver'],
    ]);
    const delivered = await t.json<{ count: number }>('GET', '/api/history/?status=delivered', w.d1.token);
    expect(delivered.body.count).toBe(1);
    expect((await t.json<{ count: number }>('GET', '/api/history/?search=H-2', w.d1.token)).body.count).toBe(1);
    expect((await t.json<{ count: number }>('GET', '/api/history/?date_from=2026-01-06', w.d1.token)).body.count).toBe(0);
    expect((await t.json('GET', '/api/history/?status=lost', w.d1.token)).status).toBe(400);
    expect((await t.json('GET', `/api/history/?driver=${w.d2.id}`, w.d1.token)).status).toBe(403);
    expect((await t.json('GET', '/api/history/', w.admin.token)).status).toBe(400);
    expect((await t.json<{ count: number }>('GET', `/api/history/?driver=${w.d1.id}`, w.admin.token)).body.count).toBe(2);
    expect((await t.json('GET', '/api/history/', w.shipper.token)).status).toBe(403);

    const story = await t.json<{
      events: { action: string; actor: { name: string } | null; latitude: number | null }[];
      proof: Json;
      attempts: unknown[];
    }>('GET', `/api/history/${a}/`, w.d1.token);
    expect(story.status).toBe(200);
    expect(story.body.events.map((e) => e.action)).toEqual(['create', 'assign', 'inbound_scan', 'deliver']);
    expect(story.body.events[3]).toMatchObject({ actor: { name: 'Dana Driver' }, latitude: -37.8 });
    expect(story.body.proof).toMatchObject({ recipient_name: 'Rita' });
    const failedStory = await t.json<{ attempts: { reason: string; note: string }[]; proof: null }>(
      'GET',
      `/api/history/${b}/`,
      w.shipper.token,
    );
    expect(failedStory.body).toMatchObject({ proof: null, attempts: [{ reason: 'Nobody home', note: 'dog on porch' }] });
    expect((await t.json('GET', `/api/history/${c}/`, w.d1.token)).status).toBe(404);
    expect((await t.json('GET', `/api/history/${a}/`, w.otherShipper.token)).status).toBe(404);

    // After a reassignment the first driver still sees the story of what they did.
    await w.assign(w.d2.id, [b]);
    expect((await t.json('GET', `/api/history/${b}/`, w.d1.token)).status).toBe(200);
  });

  it("gives the driver today's packages (due or assigned today) and their pickups", async () => {
    const w = await world();
    const { t } = w;
    const due = await w.parcel('Q-1', { delivery_date: '2026-01-07' });
    const today = await w.parcel('Q-2');
    await w.assign(w.d1.id, [due]);
    t.clock.set(Date.UTC(2026, 0, 7, 1, 0, 0));
    await w.assign(w.d1.id, [today]);
    const pickup = await w.parcel('Q-3');
    await t.db.update(pkg).set({ status: 'pickup_requested', assigned_to_id: w.d1.id }).where(eq(pkg.id, pickup)).run();

    const list = await t.json<{ count: number; packages: { hawb: string }[] }>('GET', '/api/driver-package/current-date/', w.d1.token);
    expect(list.status).toBe(200);
    expect(list.body.packages.map((p) => p.hawb)).toEqual(['Q-1', 'Q-2']);
    const assignedDay = await t.json<{ packages: { hawb: string }[] }>(
      'GET',
      '/api/driver-package/current-date/?date=2026-01-05',
      w.d1.token,
    );
    expect(assignedDay.body.packages.map((p) => p.hawb)).toEqual(['Q-1']);
    expect((await t.json<{ count: number }>('GET', '/api/driver-package/current-date/?date=2026-01-04', w.d1.token)).body.count).toBe(0);
    // 01:00 UTC on the 7th is the afternoon of the 6th in Los Angeles: only Q-2 was assigned that day.
    const la = await t.json<{ packages: { hawb: string }[] }>('GET', '/api/driver-package/current-date/?utc_offset=-480', w.d1.token);
    expect(la.body.packages.map((p) => p.hawb)).toEqual(['Q-2']);
    expect((await t.json('GET', '/api/driver-package/current-date/?utc_offset=5000', w.d1.token)).status).toBe(400);
    expect((await t.json('GET', '/api/driver-package/current-date/', w.admin.token)).status).toBe(403);

    const pickups = await t.json<{ packages: { hawb: string; status: string }[] }>('GET', '/api/driver-package/pickup/', w.d1.token);
    expect(pickups.body.packages).toMatchObject([{ hawb: 'Q-3', status: 'pickup_requested' }]);
    expect((await t.json<{ count: number }>('GET', '/api/driver-package/pickup/', w.d2.token)).body.count).toBe(0);
  });
});

describe('returns', () => {
  it('lists, counts and details returned parcels by scope', async () => {
    const w = await world();
    const { t } = w;
    const a = await w.parcel('R-1');
    const b = await w.parcel('R-2');
    await w.assign(w.d1.id, [a, b]);
    for (const [id, hawb] of [
      [a, 'R-1'],
      [b, 'R-2'],
    ] as const) {
      await w.load(hawb);
      await w.fail(id);
    }
    const scan = await t.json<Json>('POST', '/api/return-parcel/scan/', w.depot.token, { barcode: 'R-1' });
    expect(scan.status).toBe(200);
    expect((await t.json<Json>('POST', '/api/return-parcel/scan/', w.depot.token, { barcode: 'R-1' })).body).toMatchObject({
      already_scanned: true,
    });
    expect((await t.json('POST', '/api/return-parcel/scan/', w.d2.token, { barcode: 'R-2' })).status).toBe(409);
    expect((await t.json('POST', '/api/return-parcel/scan/', w.d1.token, { barcode: 'R-404' })).status).toBe(404);
    const kept = await t.json<Json>('POST', '/api/return-parcel/depot-manager/', w.depot.token, { barcode: 'R-2', outcome: 'returned' });
    expect(kept.body).toMatchObject({ package: { status: 'returned' } });
    expect(
      (await t.json('POST', '/api/return-parcel/depot-manager/', w.depot.token, { barcode: 'R-2', outcome: 'redeliver' })).status,
    ).toBe(400);
    expect((await t.json('POST', '/api/return-parcel/depot-manager/', w.d1.token, { barcode: 'R-2', outcome: 'returned' })).status).toBe(
      403,
    );

    const staff = await t.json<{ count: number }>('GET', '/api/return-parcel/', w.depot.token);
    expect(staff.body.count).toBe(2);
    expect((await t.json<{ count: number }>('GET', '/api/return-parcel/', w.d1.token)).body.count).toBe(2);
    expect((await t.json<{ count: number }>('GET', '/api/return-parcel/', w.d2.token)).body.count).toBe(0);
    expect((await t.json<{ count: number }>('GET', '/api/return-parcel/', w.shipper.token)).body.count).toBe(2);
    expect((await t.json<{ count: number }>('GET', '/api/return-parcel/', w.otherShipper.token)).body.count).toBe(0);
    expect((await t.json<{ count: number }>('GET', `/api/return-parcel/?driver=${w.d2.id}`, w.depot.token)).body.count).toBe(0);
    expect((await t.json('GET', '/api/return-parcel/?status=lost', w.depot.token)).status).toBe(400);

    const info = await t.json('GET', '/api/return-parcel/info/', w.shipper.token);
    expect(info.body).toMatchObject({ returned: 2, returned_to_sender: 0, failed_must_return: 0, max_attempts: 3 });
    const detail = await t.json<{ attempts: { reason: string }[]; events: { action: string }[]; must_return: boolean }>(
      'GET',
      `/api/return-parcel/${a}/`,
      w.depot.token,
    );
    expect(detail.status).toBe(200);
    expect(detail.body.attempts).toMatchObject([{ reason: 'Nobody home' }]);
    expect(detail.body.events.map((e) => e.action)).toContain('return_scan');
    expect((await t.json('GET', `/api/return-parcel/${a}/`, w.otherShipper.token)).status).toBe(404);
  });
});
