import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messageOutbox, pkg, warehouse } from '../../server/db/schema/index';
import type { RecipientView } from '../../shared/schemas/recipients';
import { makeApp } from '../helpers/app';

const png = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, n & 255, (n >> 8) & 255]);

async function world() {
  const t = await makeApp({ config: { publicUrl: 'https://track.example.com' } });
  const admin = await t.login('admin');
  const shipper = await t.login('company');
  const otherShipper = await t.login('company');
  const driver = await t.login('driver');
  const reason = (await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', admin.token, { name: 'Closed' })).body.id;
  const parcel = async (hawb: string, who = shipper) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', who.token, {
      hawb,
      customer_name: `Name of ${hawb}`,
      customer_phone: '+61 400 000 001',
      customer_address: `1 ${hawb} Street`,
      recipient_email: `${hawb.toLowerCase()}@example.net`,
    });
    expect(res.status).toBe(201);
    const link = await t.json<{ url: string; token: string }>('GET', `/api/package/${res.body.id}/tracking-link/`, who.token);
    expect(link.status).toBe(200);
    return { id: res.body.id, hawb, token: link.body.token, url: link.body.url };
  };
  const out = async (p: { id: number; hawb: string }) => {
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [p.id] })).status).toBe(
      200,
    );
    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: p.hawb })).status).toBe(200);
  };
  const view = (token: string) => t.json<RecipientView>('GET', `/api/public/track/${token}/`);
  const upload = (token: string, n: number, kind = 'photo') => t.upload(token, png(n), { kind });
  const position = (lat: number, at = t.clock.now()) =>
    t.json('POST', '/api/driver-position/', driver.token, {
      positions: [{ latitude: lat, longitude: 151.2, occurred_at: new Date(at).toISOString() }],
    });
  return { t, admin, shipper, otherShipper, driver, reason, parcel, out, view, upload, position };
}

describe('the recipient tracking link', () => {
  it('shows one parcel by its unguessable link, and nothing of any other parcel', async () => {
    const w = await world();
    const a = await w.parcel('TRK-A');
    const b = await w.parcel('TRK-B');
    expect(a.url).toBe(`https://track.example.com/track.html#${a.token}`);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a.token).not.toBe(b.token);
    // The same link each time it is asked for (messages and shipper share it).
    expect((await w.t.json<{ token: string }>('GET', `/api/package/${a.id}/tracking-link/`, w.shipper.token)).body.token).toBe(a.token);
    expect((await w.t.json('GET', `/api/package/${a.id}/tracking-link/`, w.otherShipper.token)).status).toBe(404);
    expect((await w.t.json('GET', `/api/package/${a.id}/tracking-link/`, w.driver.token)).status).toBe(404);

    // A parcel without a shipper has no page (its view needs a shipper's settings): no link that would say "not valid".
    const own = await w.t.json<{ id: number }>('POST', '/api/package/', w.admin.token, { hawb: 'TRK-OWN', customer_name: 'Own' });
    expect(own.status).toBe(201);
    const ownLink = await w.t.json<{ url: string | null; token: string; warning: string }>(
      'GET',
      `/api/package/${own.body.id}/tracking-link/`,
      w.admin.token,
    );
    expect(ownLink.body.url).toBeNull();
    expect(ownLink.body.warning).toMatch(/no shipper/);
    expect((await w.view(ownLink.body.token)).status).toBe(404);

    const va = await w.view(a.token);
    expect(va.status).toBe(200);
    expect(va.body).toMatchObject({ hawb: 'TRK-A', status: 'created', driver_position: null, proof: null, opted_out: false });
    const text = JSON.stringify(va.body);
    for (const secret of ['TRK-B', b.token, 'Name of', 'Street', '+61', '@example.net']) expect(text).not.toContain(secret);

    // A wrong, malformed or near-miss token is a plain 404 (or 400 for the wrong shape), never a 5xx.
    expect((await w.view(`${a.token.slice(0, -1)}${a.token.endsWith('A') ? 'B' : 'A'}`)).status).toBe(404);
    expect((await w.view('short')).status).toBe(400);
    // A path trick lands on the ordinary, protected route: no way around the token.
    expect((await w.t.json('GET', '/api/public/track/../../package/1/')).status).toBe(401);
    // The tracking number alone still gives only the coarse status.
    const coarse = await w.t.json<Record<string, unknown>>('GET', '/api/track/TRK-A/');
    expect(Object.keys(coarse.body).sort()).toEqual(['delivered_at', 'events', 'hawb', 'status', 'status_label', 'suburb', 'success']);
  });

  it("shows the proof (photo and signature) only once delivered, and never another parcel's files", async () => {
    const w = await world();
    const a = await w.parcel('POD-A');
    const b = await w.parcel('POD-B');
    await w.out(a);
    await w.out(b);
    const photoA = await w.upload(w.driver.token, 1);
    const signA = await w.upload(w.driver.token, 2);
    const photoB = await w.upload(w.driver.token, 3);
    await w.t.json('POST', '/api/photo-upload/', w.driver.token, { package: a.id, photo_one: photoA });
    expect((await w.t.json(`GET`, `/api/public/track/${a.token}/file/${photoA}/`)).status).toBe(404); // not delivered yet
    expect(
      (
        await w.t.json('POST', `/api/package-delivered/${a.id}/deliver/`, w.driver.token, {
          recipient_name: 'Robin',
          photos: [photoA],
          signature: signA,
        })
      ).status,
    ).toBe(200);
    expect((await w.t.json('POST', `/api/package-delivered/${b.id}/deliver/`, w.driver.token, { photos: [photoB] })).status).toBe(200);

    const v = await w.view(a.token);
    expect(v.body.proof).toEqual({
      delivered_at: expect.any(String) as string,
      recipient_name: 'Robin',
      photos: [{ url: `/api/public/track/${a.token}/file/${photoA}/`, mime: 'image/png' }],
      signature: { url: `/api/public/track/${a.token}/file/${signA}/`, mime: 'image/png' },
    });
    const img = await w.t.call('GET', `/api/public/track/${a.token}/file/${photoA}/`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(png(1));
    // B's photo through A's link, or any other file id: 404.
    expect((await w.t.call('GET', `/api/public/track/${a.token}/file/${photoB}/`)).status).toBe(404);
    expect((await w.t.call('GET', `/api/public/track/${b.token}/file/${photoA}/`)).status).toBe(404);
    expect((await w.t.call('GET', `/api/public/track/${a.token}/file/999999/`)).status).toBe(404);
  });

  it("shows the driver's position only on the day, while out, within the last N stops, and never after delivery", async () => {
    const w = await world();
    const stops = [await w.parcel('POS-1'), await w.parcel('POS-2'), await w.parcel('POS-3')];
    for (const s of stops) await w.out(s);
    await w.position(-33.9);
    // POS-3 has two stops before it: with N = 2 it is outside the window.
    expect((await w.view(stops[2]!.token)).body).toMatchObject({ stops_before: 2, driver_position: null });
    expect((await w.view(stops[1]!.token)).body).toMatchObject({ stops_before: 1, driver_position: { latitude: -33.9, longitude: 151.2 } });
    expect((await w.view(stops[0]!.token)).body.driver_position).toMatchObject({ latitude: -33.9 });

    // A stale reading (older than 15 minutes) says nothing.
    w.t.clock.advance(16 * 60_000);
    expect((await w.view(stops[0]!.token)).body.driver_position).toBeNull();
    await w.position(-33.8);
    expect((await w.view(stops[0]!.token)).body.driver_position).toMatchObject({ latitude: -33.8 });

    // Delivered: the driver moves on and the recipient no longer sees where.
    expect((await w.t.json('POST', `/api/package-delivered/${stops[0]!.id}/deliver/`, w.driver.token, {})).status).toBe(200);
    expect((await w.view(stops[0]!.token)).body).toMatchObject({ status: 'delivered', driver_position: null, stops_before: null });
    expect((await w.view(stops[2]!.token)).body.driver_position).toMatchObject({ latitude: -33.8 });

    // The next day, a parcel that went out yesterday and is still "out" shows nothing.
    w.t.clock.advance(24 * 3600_000);
    await w.position(-33.7);
    expect((await w.view(stops[1]!.token)).body.driver_position).toBeNull();
  });

  it('a company that sets N = 0 never shows the van', async () => {
    const w = await world();
    await w.t.json('PATCH', '/api/recipient-settings/', w.shipper.token, { stops_away: 0 });
    const only = await w.parcel('POS-0');
    await w.out(only);
    await w.position(-33.6);
    expect((await w.view(only.token)).body).toMatchObject({ stops_before: 0, driver_position: null });
  });

  it("instructions reach the driver's synced copy (not the Package answer), and stop once delivered", async () => {
    const w = await world();
    const a = await w.parcel('INS-A');
    await w.out(a);
    const cursor = (await w.t.json<{ cursor: number }>('GET', '/api/sync/changes/?cursor=0', w.driver.token)).body.cursor;
    const left = await w.t.json('POST', `/api/public/track/${a.token}/instructions/`, null, { instructions: 'behind the side gate' });
    expect(left.status).toBe(200);
    const feed = await w.t.json<{ upserts: { packages: { id: number; recipient_instructions?: string }[] } }>(
      'GET',
      `/api/sync/changes/?cursor=${cursor}`,
      w.driver.token,
    );
    expect(feed.body.upserts.packages).toEqual([expect.objectContaining({ id: a.id, recipient_instructions: 'behind the side gate' })]);
    const answer = await w.t.json<Record<string, unknown>>('GET', `/api/package/${a.id}/`, w.admin.token);
    expect(answer.body).not.toHaveProperty('recipient_instructions');
    expect((await w.view(a.token)).body.instructions).toBe('behind the side gate');
    // Too long, or not a string: 400 and nothing changes.
    expect((await w.t.json('POST', `/api/public/track/${a.token}/instructions/`, null, { instructions: 'x'.repeat(501) })).status).toBe(
      400,
    );
    expect((await w.t.json('POST', `/api/public/track/${a.token}/instructions/`, null, { instructions: 5 })).status).toBe(400);
    await w.t.json('POST', `/api/package-delivered/${a.id}/deliver/`, w.driver.token, {});
    expect((await w.t.json('POST', `/api/public/track/${a.token}/instructions/`, null, { instructions: 'too late' })).status).toBe(409);
    expect((await w.view(a.token)).body.instructions).toBe('behind the side gate');
  });

  it("after a failed attempt the recipient picks another day within the company's window and the parcel is re-planned", async () => {
    const w = await world();
    const a = await w.parcel('DAY-A');
    await w.out(a);
    expect((await w.t.json('POST', `/api/public/track/${a.token}/reschedule/`, null, { date: '2026-01-06' })).status).toBe(409); // not failed
    await w.t.db.update(pkg).set({ route_id: 77, sequence_no: 3 }).where(eq(pkg.id, a.id)).run();
    await w.t.json('POST', `/api/package-delivered/${a.id}/fail/`, w.driver.token, { failed_delivery_status: w.reason });
    const v = await w.view(a.token);
    // The test clock starts on 2026-01-05.
    expect(v.body).toMatchObject({
      status: 'failed',
      failure: { reason: 'Closed' },
      reschedule: { earliest: '2026-01-06', latest: '2026-01-12' },
    });
    expect((await w.t.json('POST', `/api/public/track/${a.token}/reschedule/`, null, { date: '2026-01-05' })).status).toBe(400);
    expect((await w.t.json('POST', `/api/public/track/${a.token}/reschedule/`, null, { date: '2026-01-13' })).status).toBe(400);
    expect((await w.t.json('POST', `/api/public/track/${a.token}/reschedule/`, null, { date: 'tomorrow' })).status).toBe(400);
    expect(await w.t.db.select().from(pkg).where(eq(pkg.id, a.id)).get()).toMatchObject({ delivery_date: null, route_id: 77 });
    const ok = await w.t.json('POST', `/api/public/track/${a.token}/reschedule/`, null, { date: '2026-01-06' });
    expect(ok.status).toBe(200);
    expect(await w.t.db.select().from(pkg).where(eq(pkg.id, a.id)).get()).toMatchObject({
      delivery_date: '2026-01-06',
      route_id: null,
      sequence_no: null,
      status: 'failed',
    });
    expect((await w.view(a.token)).body.delivery_date).toBe('2026-01-06');
  });

  it('rates a delivered parcel once, shown per driver to its company only', async () => {
    const w = await world();
    const a = await w.parcel('RATE-A');
    const other = await w.parcel('RATE-O', w.otherShipper);
    await w.out(a);
    expect((await w.t.json('POST', `/api/public/track/${a.token}/rating/`, null, { rating: 5 })).status).toBe(409);
    await w.t.json('POST', `/api/package-delivered/${a.id}/deliver/`, w.driver.token, {});
    expect((await w.t.json('POST', `/api/public/track/${a.token}/rating/`, null, { rating: 6 })).status).toBe(400);
    expect(
      (await w.t.json('POST', `/api/public/track/${a.token}/rating/`, null, { rating: 4, comment: 'Friendly, left it dry' })).status,
    ).toBe(201);
    expect((await w.t.json('POST', `/api/public/track/${a.token}/rating/`, null, { rating: 1 })).status).toBe(409);
    expect((await w.view(a.token)).body).toMatchObject({ rating: { rating: 4, comment: 'Friendly, left it dry' }, can_rate: false });
    const mine = await w.t.json<{ results: { driver: number; average: number; count: number; recent: { comment: string }[] }[] }>(
      'GET',
      '/api/report/driver-ratings/',
      w.shipper.token,
    );
    expect(mine.body.results).toEqual([
      expect.objectContaining({
        driver: w.driver.id,
        average: 4,
        count: 1,
        recent: [expect.objectContaining({ comment: 'Friendly, left it dry', hawb: 'RATE-A' })],
      }),
    ]);
    expect((await w.t.json<{ results: unknown[] }>('GET', '/api/report/driver-ratings/', w.otherShipper.token)).body.results).toEqual([]);
    expect((await w.t.json<{ results: unknown[] }>('GET', '/api/report/driver-ratings/', w.admin.token)).body.results).toHaveLength(1);
    expect((await w.t.json('GET', '/api/report/driver-ratings/', w.driver.token)).status).toBe(403);
    expect(other.token).toBeTruthy();
  });

  it("opting out stops queued and future messages at once, for this and the company's next parcels", async () => {
    const w = await world();
    const a = await w.parcel('OPT-A');
    await w.out(a);
    expect((await w.t.db.select().from(messageOutbox).where(eq(messageOutbox.package_id, a.id)).all()).map((r) => r.status)).toEqual([
      'pending',
      'pending',
    ]);
    expect((await w.t.json('POST', `/api/public/track/${a.token}/opt-out/`, null)).status).toBe(200);
    expect((await w.t.db.select().from(messageOutbox).where(eq(messageOutbox.package_id, a.id)).all()).map((r) => r.status)).toEqual([
      'skipped',
      'skipped',
    ]);
    expect((await w.view(a.token)).body.opted_out).toBe(true);
    await w.t.json('POST', `/api/package-delivered/${a.id}/deliver/`, w.driver.token, {});
    expect(await w.t.db.select().from(messageOutbox).where(eq(messageOutbox.package_id, a.id)).all()).toHaveLength(2);
    // The same phone on the company's next parcel: no SMS queued (its e-mail differs, so that one is).
    const b = await w.parcel('OPT-B');
    await w.out(b);
    expect((await w.t.db.select().from(messageOutbox).where(eq(messageOutbox.package_id, b.id)).all()).map((r) => r.channel)).toEqual([
      'email',
    ]);
    // Its page still offers to stop them: e-mails still come.
    expect((await w.view(b.token)).body.opted_out).toBe(false);
  });

  it('company settings: own company only, staff name one, logo must be an image the company uploaded', async () => {
    const w = await world();
    const mine = await w.t.json<{ company: number; events: string[]; sender_name: string }>(
      'GET',
      '/api/recipient-settings/',
      w.shipper.token,
    );
    expect(mine.body.events).toEqual(['out_for_delivery', 'arriving_soon', 'delivered', 'failed', 'returned_to_sender']);
    expect((await w.t.json('GET', `/api/recipient-settings/?company=${mine.body.company}`, w.otherShipper.token)).status).toBe(403);
    expect((await w.t.json('GET', '/api/recipient-settings/', w.admin.token)).status).toBe(400);
    expect((await w.t.json('GET', `/api/recipient-settings/?company=${mine.body.company}`, w.admin.token)).status).toBe(200);
    expect((await w.t.json('GET', '/api/recipient-settings/', w.driver.token)).status).toBe(403);
    const foreign = await w.upload(w.driver.token, 9);
    expect((await w.t.json('PATCH', '/api/recipient-settings/', w.shipper.token, { logo_file: foreign })).status).toBe(400);
    // A photo is not a logo: a file serves the purpose it was uploaded for.
    expect(
      (await w.t.json('PATCH', '/api/recipient-settings/', w.shipper.token, { logo_file: await w.upload(w.shipper.token, 11) })).status,
    ).toBe(400);
    const logo = await w.upload(w.shipper.token, 10, 'logo');
    expect((await w.t.json('PATCH', '/api/recipient-settings/', w.shipper.token, { logo_file: logo })).status).toBe(200);
    const a = await w.parcel('LOGO-A');
    const v = await w.view(a.token);
    expect(v.body.company.logo?.url).toBe(`/api/public/track/${a.token}/file/${logo}/`);
    expect((await w.t.call('GET', v.body.company.logo!.url)).status).toBe(200);
  });

  it("names the zone its times read in: the parcel's depot's, else the business's (the messages' and the phone's wall clock)", async () => {
    const w = await world();
    const a = await w.parcel('TRK-ZONE');
    // No depot and no business zone: the configured TIME_ZONE (UTC in these tests).
    expect((await w.view(a.token)).body.time_zone).toBe('UTC');
    expect((await w.t.json('PATCH', '/api/settings/business-profile/', w.admin.token, { time_zone: 'Australia/Sydney' })).status).toBe(200);
    expect((await w.view(a.token)).body.time_zone).toBe('Australia/Sydney');
    // A Perth depot's parcel reads in Perth, though the business is in Sydney.
    const now = w.t.clock.now();
    const perth = (
      await w.t.db
        .insert(warehouse)
        .values({ name: 'Perth', street_address: '1 Perth Rd', created_at: now, updated_at: now })
        .returning()
        .get()
    ).id;
    expect((await w.t.json('PUT', `/api/warehouse/${perth}/time-zone/`, w.admin.token, { time_zone: 'Australia/Perth' })).status).toBe(200);
    await w.t.db.update(pkg).set({ warehouse_id: perth }).where(eq(pkg.id, a.id)).run();
    expect((await w.view(a.token)).body.time_zone).toBe('Australia/Perth');
  });

  it('limits public calls per address', async () => {
    const w = await world();
    const a = await w.parcel('LIM-A');
    let last = 200;
    for (let i = 0; i < 61; i++) last = (await w.view(a.token)).status;
    expect(last).toBe(429);
  });
});
