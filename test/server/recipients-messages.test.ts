import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageOutbox } from '../../server/db/schema/index';
import { messageDispatcherFor } from '../../server/services/messages/setup';
import { httpSmsProvider, logEmailTransport, logSmsProvider, smtpTransport } from '../../server/services/messages/transports';
import { makeApp } from '../helpers/app';
import { localClock } from '../../shared/time/zone';
import { startSmsStandIn, startSmtp } from '../helpers/messaging';

const PUBLIC = 'https://track.example.com';
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let sms: Awaited<ReturnType<typeof startSmsStandIn>>;

beforeAll(async () => {
  smtp = await startSmtp();
  sms = await startSmsStandIn();
});
afterAll(async () => {
  await smtp.close();
  await sms.close();
});

async function world(publicUrl: string | null = PUBLIC) {
  const t = await makeApp({ config: { publicUrl: publicUrl ?? undefined } });
  const admin = await t.login('admin');
  const shipper = await t.login('company');
  const driver = await t.login('driver');
  const reason = (await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', admin.token, { name: 'No one home' })).body.id;
  const transports = {
    email: smtpTransport(smtp.url),
    sms: httpSmsProvider({ url: sms.url, accountSid: sms.sid, authToken: sms.authToken, from: '+61400000000' }),
    fromAddress: 'notices@courier.example',
  };
  const dispatcher = messageDispatcherFor(t.app.deps, transports, { baseDelayMs: 60_000 });
  const parcel = async (hawb: string, extra: Record<string, unknown> = {}) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, {
      hawb,
      customer_name: 'Robin',
      customer_phone: '+61 400 111 222',
      recipient_email: `robin.${hawb.toLowerCase()}@example.net`,
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const outForDelivery = async (id: number, hawb: string) => {
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [id] })).status).toBe(
      200,
    );
    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: hawb })).status).toBe(200);
  };
  const rows = () => t.db.select().from(messageOutbox).all();
  const mailsTo = (addr: string) => smtp.mails.filter((m) => m.to.includes(addr));
  return { t, admin, shipper, driver, reason, dispatcher, parcel, outForDelivery, rows, mailsTo };
}

describe('recipient messages through the outbox', () => {
  it('sends "on its way" by e-mail over real SMTP and by SMS, after the commit, each exactly once', async () => {
    const w = await world();
    const id = await w.parcel('MSG-1');
    await w.outForDelivery(id, 'MSG-1');
    // Queued in the transaction of the scan, nothing sent inside the request.
    expect(
      (await w.rows())
        .filter((r) => r.kind === 'out_for_delivery')
        .map((r) => [r.channel, r.status])
        .sort(),
    ).toEqual([
      ['email', 'pending'],
      ['sms', 'pending'],
    ]);
    expect(w.mailsTo('robin.msg-1@example.net')).toHaveLength(0);

    expect(await w.dispatcher.runOnce()).toBe(2);
    const [mail] = w.mailsTo('robin.msg-1@example.net');
    expect(mail!.subject).toBe('Your parcel MSG-1 is on its way');
    expect(mail!.raw).toMatch(/^From: "?Company \d+"? <notices@courier\.example>/m);
    // Not `\b`: a token may end in '-', and '-' before '/' is no word boundary (1 run in 64 failed).
    const token = /https:\/\/track\.example\.com\/track\.html#([A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])/.exec(mail!.text)?.[1];
    expect(token).toBeTruthy();
    expect(mail!.text).toContain(`To stop these messages: ${PUBLIC}/track.html#${token!}/stop`);
    // No ETA is known yet (planning has none): the message says only that it is on its way.
    expect(mail!.text).toMatch(/^Company \d+: your parcel MSG-1 is on its way\. Track it or leave instructions: https:/);
    const texts = sms.accepted().filter((r) => r.form.get('To') === '+61400111222' /* stored in international form (issue 36) */);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.form.get('From')).toBe('+61400000000');
    expect(texts[0]!.form.get('Body')).toContain(`${PUBLIC}/track.html#${token!}`);
    expect((await w.rows()).filter((r) => r.kind === 'out_for_delivery').every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);

    // Never twice: another run, or the same scan replayed, sends nothing more.
    expect(await w.dispatcher.runOnce()).toBe(0);
    await w.t.json('POST', '/api/scan-package-api/inbound-scan/', w.driver.token, { barcode: 'MSG-1' });
    await w.dispatcher.runOnce();
    expect(w.mailsTo('robin.msg-1@example.net')).toHaveLength(1);
  });

  it('"on its way" carries the arrival window of the planned route (dispatch ETAs), and the page shows it', async () => {
    const w = await world();
    // The recipient reads the depot's wall clock (issue 31): here the business's, Sydney.
    expect((await w.t.json('PATCH', '/api/settings/business-profile/', w.admin.token, { time_zone: 'Australia/Sydney' })).status).toBe(200);
    const id = await w.parcel('ETA-1', { latitude: -33.87, longitude: 151.21, customer_phone: null });
    const route = await w.t.json<{ route: { id: number } }>('POST', '/api/route/', w.admin.token, {
      name: 'Run',
      date: '2026-01-05',
      driver: w.driver.id,
      packages: [id],
    });
    expect(route.status).toBe(201);
    expect(
      (
        await w.t.json('POST', `/api/route/${route.body.route.id}/optimize/`, w.admin.token, {
          start_latitude: -33.8,
          start_longitude: 151.2,
        })
      ).status,
    ).toBe(200);
    expect((await w.t.json('POST', '/api/scan-package-api/inbound-scan/', w.driver.token, { barcode: 'ETA-1' })).status).toBe(200);
    await w.dispatcher.runOnce();
    const [mail] = w.mailsTo('robin.eta-1@example.net');
    const window = /is on its way, arriving (\d\d:\d\d)–(\d\d:\d\d)\. Track it/.exec(mail!.text);
    expect(window).not.toBeNull();
    const token = /#([A-Za-z0-9_-]{32})/.exec(mail!.text)![1]!;
    const view = await w.t.json<{ eta: { from: string; to: string } | null }>('GET', `/api/public/track/${token}/`);
    expect(Date.parse(view.body.eta!.to) - Date.parse(view.body.eta!.from)).toBe(30 * 60_000);
    expect([window![1], window![2]]).toEqual([
      localClock(Date.parse(view.body.eta!.from), 'Australia/Sydney'),
      localClock(Date.parse(view.body.eta!.to), 'Australia/Sydney'),
    ]);
    // Not the UTC clock: Sydney is 10 or 11 hours ahead.
    expect(window![1]).not.toBe(view.body.eta!.from.slice(11, 16));
  });

  it('retries SMS after a 500 and a 429 (honouring Retry-After), then sends once; a 400 is final', async () => {
    const w = await world();
    const id = await w.parcel('MSG-2', { recipient_email: null });
    sms.fail({ status: 500 }, { status: 429, retryAfter: 600 });
    await w.outForDelivery(id, 'MSG-2');
    const before = sms.requests.length;
    await w.dispatcher.runOnce();
    let row = (await w.rows()).find((r) => r.package_id === id)!;
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.last_error).toMatch(/^HTTP 500/);
    expect(row.next_attempt_at).toBe(w.t.clock.now() + 60_000);
    await w.dispatcher.runOnce(); // not due yet
    expect(sms.requests.length).toBe(before + 1);

    w.t.clock.advance(60_000);
    await w.dispatcher.runOnce();
    row = (await w.rows()).find((r) => r.package_id === id)!;
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(row.last_error).toMatch(/^HTTP 429/);
    // The provider asked for 600 s, longer than our 120 s back-off.
    expect(row.next_attempt_at).toBe(w.t.clock.now() + 600_000);
    w.t.clock.advance(120_000);
    await w.dispatcher.runOnce();
    expect(sms.requests.length).toBe(before + 2);
    w.t.clock.advance(480_000);
    await w.dispatcher.runOnce();
    row = (await w.rows()).find((r) => r.package_id === id)!;
    expect(row).toMatchObject({ status: 'sent', attempts: 3 });
    expect(row.provider_id).toMatch(/^SM/);
    expect(sms.requests.slice(before).map((r) => r.status)).toEqual([500, 429, 201]);

    // A bad number (400 from the provider) is not retried.
    const bad = await w.parcel('MSG-2B', { recipient_email: null });
    sms.fail({ status: 400 });
    await w.outForDelivery(bad, 'MSG-2B');
    await w.dispatcher.runOnce();
    expect((await w.rows()).find((r) => r.package_id === bad)).toMatchObject({ status: 'dead', attempts: 1 });
  });

  it('wrong SMS credentials are refused by the provider and the message is given up, not retried forever', async () => {
    const w = await world();
    const dispatcher = messageDispatcherFor(w.t.app.deps, {
      fromAddress: 'x@example.com',
      email: logEmailTransport(() => {}),
      sms: httpSmsProvider({ url: sms.url, accountSid: sms.sid, authToken: 'wrong', from: '+1' }),
    });
    const id = await w.parcel('MSG-3', { recipient_email: null });
    await w.outForDelivery(id, 'MSG-3');
    await dispatcher.runOnce();
    expect((await w.rows()).find((r) => r.package_id === id)).toMatchObject({ status: 'dead' });
    expect((await w.rows()).find((r) => r.package_id === id)!.last_error).toMatch(/^HTTP 401/);
  });

  it('sends "delivered" with the proof link and "failed" with the reason, what happens next and the link', async () => {
    const w = await world();
    const a = await w.parcel('MSG-4');
    const b = await w.parcel('MSG-5');
    await w.outForDelivery(a, 'MSG-4');
    await w.outForDelivery(b, 'MSG-5');
    expect((await w.t.json('POST', `/api/package-delivered/${a}/deliver/`, w.driver.token, { recipient_name: 'Robin' })).status).toBe(200);
    expect((await w.t.json('POST', `/api/package-delivered/${b}/fail/`, w.driver.token, { failed_delivery_status: w.reason })).status).toBe(
      200,
    );
    await w.dispatcher.runOnce();
    const delivered = w.mailsTo('robin.msg-4@example.net').find((m) => /delivered/.test(m.subject))!;
    expect(delivered.subject).toBe('Your parcel MSG-4 was delivered');
    expect(delivered.text).toMatch(/Proof of delivery: https:\/\/track\.example\.com\/track\.html#[A-Za-z0-9_-]{32}/);
    const failed = w.mailsTo('robin.msg-5@example.net').find((m) => /missed/.test(m.subject))!;
    expect(failed.subject).toBe('We missed you: parcel MSG-5');
    expect(failed.text).toContain(
      'we could not deliver your parcel MSG-5 (No one home). We will try again on the next delivery day. Choose another day or leave instructions: https://track.example.com/track.html#',
    );

    // Back to the depot, then to the sender: "returned to sender" once, at the final step.
    expect((await w.t.json('POST', `/api/package/${b}/status-change/`, w.admin.token, { status: 'returned' })).status).toBe(200);
    expect((await w.t.json('POST', `/api/package/${b}/status-change/`, w.admin.token, { status: 'returned_to_sender' })).status).toBe(200);
    await w.dispatcher.runOnce();
    const back = w.mailsTo('robin.msg-5@example.net').filter((m) => /back to the sender/.test(m.subject));
    expect(back.map((m) => m.subject)).toEqual(['Your parcel MSG-5 is going back to the sender']);
    expect(back[0]!.text).toMatch(/Details: https:\/\/track\.example\.com\/track\.html#/);
  });

  it('"arriving soon" goes to the parcels within the company\'s N stops once a stop is done', async () => {
    const w = await world();
    const ids: number[] = [];
    for (const h of ['SOON-1', 'SOON-2', 'SOON-3', 'SOON-4']) ids.push(await w.parcel(h));
    for (const [i, id] of ids.entries()) await w.outForDelivery(id, `SOON-${i + 1}`);
    await w.dispatcher.runOnce();
    expect((await w.t.json('POST', `/api/package-delivered/${ids[0]!}/deliver/`, w.driver.token, {})).status).toBe(200);
    const soon = (await w.rows()).filter((r) => r.kind === 'arriving_soon' && r.channel === 'email');
    // Default N = 2: SOON-2 is next, SOON-3 two stops away, SOON-4 not yet.
    expect(soon.map((r) => r.package_id)).toEqual([ids[1], ids[2]]);
    await w.dispatcher.runOnce();
    expect(w.mailsTo('robin.soon-2@example.net').map((m) => m.subject)).toContain('Your parcel SOON-2 is the next stop away');
    expect(w.mailsTo('robin.soon-3@example.net').map((m) => m.subject)).toContain('Your parcel SOON-3 is 2 stops away');
    // The next stop done: SOON-4 enters the window, SOON-3 does not hear again.
    await w.t.json('POST', `/api/package-delivered/${ids[1]!}/deliver/`, w.driver.token, {});
    expect((await w.rows()).filter((r) => r.kind === 'arriving_soon' && r.channel === 'email').map((r) => r.package_id)).toEqual([
      ids[1],
      ids[2],
      ids[3],
    ]);
  });

  it('"arriving soon" reaches as far as each stop\'s company says, 20 stops at the most', async () => {
    const w = await world();
    expect((await w.t.json('PATCH', '/api/recipient-settings/', w.shipper.token, { stops_away: 21 })).status).toBe(400);
    expect((await w.t.json('PATCH', '/api/recipient-settings/', w.shipper.token, { stops_away: 20 })).status).toBe(200);
    // Another shipper on the same van tells nobody ahead of time.
    const other = await w.t.login('company');
    expect((await w.t.json('PATCH', '/api/recipient-settings/', other.token, { stops_away: 0 })).status).toBe(200);
    const ids: number[] = [await w.parcel('FAR-0')];
    const theirs = await w.t.json<{ id: number }>('POST', '/api/package/', other.token, {
      hawb: 'OTHER-1',
      customer_name: 'Sam',
      recipient_email: 'sam@example.net',
    });
    expect(theirs.status).toBe(201);
    for (let i = 1; i < 23; i++) ids.push(await w.parcel(`FAR-${i}`));
    await w.outForDelivery(ids[0]!, 'FAR-0');
    await w.outForDelivery(theirs.body.id, 'OTHER-1');
    for (let i = 1; i < 23; i++) await w.outForDelivery(ids[i]!, `FAR-${i}`);
    expect((await w.t.json('POST', `/api/package-delivered/${ids[0]!}/deliver/`, w.driver.token, {})).status).toBe(200);
    const soon = (await w.rows()).filter((r) => r.kind === 'arriving_soon' && r.channel === 'email').map((r) => r.package_id);
    // Stops left: OTHER-1 (reach 0: not told), then FAR-1 … FAR-22; the 20 nearest stops are OTHER-1 and FAR-1 … FAR-19.
    expect(soon.sort((a, b) => a! - b!)).toEqual(ids.slice(1, 20));
    while ((await w.dispatcher.runOnce()) > 0) {
      /* every queued message, a batch at a time */
    }
    expect(w.mailsTo('robin.far-19@example.net').map((m) => m.subject)).toContain('Your parcel FAR-19 is 20 stops away');
    expect(w.mailsTo('robin.far-20@example.net').filter((m) => /away/.test(m.subject))).toHaveLength(0);
    expect(w.mailsTo('sam@example.net').filter((m) => /away/.test(m.subject))).toHaveLength(0);
  });

  it("follows the company's settings: events, channels, sender name and template text", async () => {
    const w = await world();
    const other = await w.t.login('company');
    const patch = await w.t.json('PATCH', '/api/recipient-settings/', w.shipper.token, {
      events: ['out_for_delivery'],
      channels: ['email'],
      sender_name: 'Bloom Flowers',
      templates: { out_for_delivery: 'Hi from {company}! {hawb} is coming today. {link}' },
    });
    expect(patch.status).toBe(200);
    expect(
      (await w.t.json('PATCH', `/api/recipient-settings/?company=${String(patch.body.company)}`, other.token, { channels: [] })).status,
    ).toBe(403);
    expect((await w.t.json('PATCH', '/api/recipient-settings/', w.shipper.token, { channels: ['pigeon'] })).status).toBe(400);
    expect((await w.t.json('PATCH', '/api/recipient-settings/', w.shipper.token, { sender_name: 'Evil\r\nBcc: x@y' })).status).toBe(400);
    const id = await w.parcel('MSG-6');
    await w.outForDelivery(id, 'MSG-6');
    await w.t.json('POST', `/api/package-delivered/${id}/deliver/`, w.driver.token, {});
    expect((await w.rows()).filter((r) => r.package_id === id).map((r) => `${r.kind}/${r.channel}`)).toEqual(['out_for_delivery/email']);
    await w.dispatcher.runOnce();
    const [mail] = w.mailsTo('robin.msg-6@example.net');
    expect(mail!.raw).toMatch(/^From: "?Bloom Flowers"? <notices@courier\.example>/m);
    expect(mail!.text).toMatch(/^Hi from Bloom Flowers! MSG-6 is coming today\. https:\/\/track\.example\.com\/track\.html#/);
  });

  it("without PUBLIC_URL messages carry no link at all (never one built from a request's Host)", async () => {
    const w = await world(null);
    const id = await w.parcel('MSG-7');
    await w.t.json('POST', '/api/assign-package/assign-driver/', w.admin.token, { driver: w.driver.id, packages: [id] });
    await w.t.json(
      'POST',
      '/api/scan-package-api/inbound-scan/',
      w.driver.token,
      { barcode: 'MSG-7' },
      { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    );
    await w.dispatcher.runOnce();
    const [mail] = w.mailsTo('robin.msg-7@example.net');
    expect(mail!.text).toMatch(/^Company \d+: your parcel MSG-7 is on its way\.$/);
    expect(mail!.raw).not.toMatch(/evil|http/);
    const link = await w.t.json<{ url: string | null; warning: string }>(
      'GET',
      `/api/package/${id}/tracking-link/`,
      w.shipper.token,
      undefined,
      { host: 'evil.example' },
    );
    expect(link.body.url).toBeNull();
    expect(link.body.warning).toMatch(/PUBLIC_URL is not set/);
  });

  it('password reset mail goes through the same outbox and SMTP', async () => {
    const w = await world();
    expect((await w.t.json('POST', '/api/auth/forget-password/', null, { email: w.driver.email })).status).toBe(200);
    // The reset is written just after the answer (so its timing tells nothing), then committed.
    await new Promise<void>((ok) => {
      setImmediate(ok);
    });
    await w.t.app.deps.writes.settled();
    expect((await w.rows()).find((r) => r.kind === 'account')).toMatchObject({ channel: 'email', status: 'pending', to: w.driver.email });
    await w.dispatcher.runOnce();
    const [mail] = w.mailsTo(w.driver.email);
    expect(mail!.subject).toBe('Reset your Courier password');
    expect(mail!.text).toMatch(/Reset token: \S+/);
  });

  it('a message cut off mid-send by a stop is marked uncertain and never sent again', async () => {
    const w = await world();
    const id = await w.parcel('MSG-8', { customer_phone: null });
    await w.outForDelivery(id, 'MSG-8');
    const row = (await w.rows()).find((r) => r.package_id === id)!;
    // What a crash between the claim and the provider's answer leaves behind.
    await w.t.db
      .update(messageOutbox)
      .set({ status: 'sending', claimed_at: w.t.clock.now(), attempts: 1 })
      .where(eq(messageOutbox.id, row.id))
      .run();
    await w.dispatcher.runOnce();
    expect((await w.rows()).find((r) => r.id === row.id)!.status).toBe('sending'); // still within its lease
    w.t.clock.advance(11 * 60_000);
    await w.dispatcher.runOnce();
    expect((await w.rows()).find((r) => r.id === row.id)).toMatchObject({ status: 'uncertain' });
    expect(w.mailsTo('robin.msg-8@example.net')).toHaveLength(0);
  });

  it('an unreachable SMTP server is retried later; without SMTP_URL or SMS_URL messages are logged and kept', async () => {
    const w = await world();
    const down = messageDispatcherFor(w.t.app.deps, {
      fromAddress: 'x@example.com',
      email: smtpTransport('smtp://127.0.0.1:9'),
      sms: logSmsProvider(() => {}),
    });
    const id = await w.parcel('MSG-9', { customer_phone: null });
    await w.outForDelivery(id, 'MSG-9');
    await down.runOnce();
    expect((await w.rows()).find((r) => r.package_id === id)).toMatchObject({ status: 'pending', attempts: 1 });
    const lines: string[] = [];
    const logOnly = messageDispatcherFor(w.t.app.deps, {
      fromAddress: 'x@example.com',
      email: logEmailTransport((l) => lines.push(l)),
      sms: logSmsProvider((l) => lines.push(l)),
    });
    w.t.clock.advance(3600_000);
    await logOnly.runOnce();
    expect((await w.rows()).find((r) => r.package_id === id)).toMatchObject({ status: 'logged', attempts: 2 });
    expect(lines.join('\n')).toMatch(/e-mail not sent \(no SMTP_URL\) to \*\*\*@example\.net/);
  });
});
