import { describe, expect, it } from 'vitest';
import { MAX_LABELS_PER_REQUEST } from '../../shared/schemas/labels';
import { atomically } from '../../server/db/atomically';
import { append, ensureWallet } from '../../server/services/money/wallets';
import { makeApp } from '../helpers/app';
import { whilePolling } from '../helpers/loopDelay';
import { moneyWorld, shipper, type Json } from './money-fixtures';

/**
 * Security issue 30, PDFs: a shipper set `count: 99` on ten of its own parcels and asked for their
 * labels: 990 pages drawn on the request thread, 8-36 s with every other request waiting. Now a
 * request draws at most MAX_LABELS_PER_REQUEST labels (more: 400 before anything is drawn), and
 * labels, manifests and invoices are drawn in a worker thread behind a queue fair per company.
 */
const pages = (pdf: ArrayBuffer) =>
  (
    Buffer.from(pdf)
      .toString('latin1')
      .match(/\/Type \/Page\b/g) ?? []
  ).length;

describe('PDFs do not freeze other users (security issue 30)', () => {
  it('990 labels are refused with the one error shape; 198 are drawn off the request thread while another user polls', async () => {
    const t = await makeApp();
    const co = await t.login('company');
    const other = await t.login('company');
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await t.json<{ id: number }>('POST', '/api/package/', co.token, {
        hawb: `MANY-${i}`,
        customer_name: 'Rita',
        customer_address: '1 King St',
        postcode: 2000,
        count: 99,
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const poll = async () => expect((await t.call('GET', '/api/profile/', other.token)).status).toBe(200);

    const refused = await whilePolling(() => t.json('GET', `/api/package/labels/?ids=${ids.join(',')}`, co.token), poll);
    expect(refused.result.status).toBe(400);
    expect(refused.result.body).toMatchObject({ success: false, code: 'validation_error', errors: [{ path: 'ids' }] });
    expect(String(refused.result.body.message)).toContain(`${MAX_LABELS_PER_REQUEST}`);

    // Under the cap (2 x 99 = 198 labels): drawn, in a worker.
    const drawn = await whilePolling(async () => {
      const res = await t.call('GET', `/api/package/labels/?ids=${ids.slice(0, 2).join(',')}`, co.token);
      return { status: res.status, bytes: await res.arrayBuffer() };
    }, poll);
    expect(drawn.result.status).toBe(200);
    expect(pages(drawn.result.bytes)).toBe(198);
    console.log(
      `198 labels: event-loop delay max ${drawn.maxMs.toFixed(0)} ms, p99 ${drawn.p99Ms.toFixed(0)} ms, loop held ${drawn.busyMs} ms at most, ${drawn.polls} polls`,
    );
    expect(drawn.polls).toBeGreaterThan(3);
    // Drawn on the request thread this held every request for seconds. Generous bounds for a busy machine.
    expect(drawn.busyMs).toBeLessThan(1000);
  }, 180_000);

  it('an invoice of 5,000 long lines (seconds of drawing) is drawn off the request thread while another user polls', async () => {
    const { t, admin } = await moneyWorld();
    const co = await shipper(t, 'postpaid');
    // References as long as the API takes (120 characters) wrap each line over three rows: drawing is
    // what grows here (seconds if drawn on the request thread: 7.2 s here once; reading the lines is
    // a few tens of ms), so the bound below fails if the PDF is drawn on the request thread again.
    const reference = (i: number) => `B${i} ${'consignment reference for the long haul route '.repeat(3)}`.slice(0, 120);
    await atomically(t.app.deps, async () => {
      const w = await ensureWallet(t, co.companyId);
      for (let i = 0; i < 5000; i++) await append(t, w.id, { kind: 'charge', amount_cents: -(100 + (i % 7)), reference: reference(i) });
    });
    const inv = await t.json<Json>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: co.companyId,
      period_from: '2026-01-01',
      period_to: '2026-01-31',
    });
    expect(inv.status).toBe(201);
    const other = await t.login('supervisor');
    const drawn = await whilePolling(
      async () => {
        const res = await t.call('GET', `/api/invoice/${inv.body.id}/pdf/`, co.token);
        return { status: res.status, bytes: await res.arrayBuffer() };
      },
      async () => expect((await t.call('GET', '/api/profile/', other.token)).status).toBe(200),
    );
    expect(drawn.result.status).toBe(200);
    expect(pages(drawn.result.bytes)).toBeGreaterThan(200);
    console.log(
      `5,000-line invoice: event-loop delay max ${drawn.maxMs.toFixed(0)} ms, p99 ${drawn.p99Ms.toFixed(0)} ms, loop held ${drawn.busyMs} ms at most, ${drawn.polls} polls`,
    );
    // Drawn on the request thread (checked by doing so) the worst delay was 7.2 s on this busy machine.
    expect(drawn.busyMs).toBeLessThan(700);
    expect(drawn.polls).toBeGreaterThan(3);
  }, 180_000);

  it('the PDF queue is bounded per company: one company flooding it gets 503, another still gets its labels', async () => {
    const t = await makeApp();
    const greedy = await t.login('company');
    const polite = await t.login('company');
    const make = async (token: string, hawb: string) =>
      (await t.json<{ id: number }>('POST', '/api/package/', token, { hawb, postcode: 2000 })).body.id;
    const mine = await make(greedy.token, 'G-1');
    const theirs = await make(polite.token, 'P-1');
    // Two draw at once and four of one company may wait (services/documents/renderer.ts): the rest are refused at once.
    const flood = Array.from({ length: 7 }, () => t.call('GET', `/api/package/${mine}/label/`, greedy.token));
    const polite1 = t.call('GET', `/api/package/${theirs}/label/`, polite.token);
    const statuses = await Promise.all(
      flood.map(async (p) => {
        const res = await p;
        if (res.status === 503) {
          expect(res.headers.get('retry-after')).toBeTruthy();
          expect(await res.json()).toMatchObject({ success: false, code: 'service_unavailable' });
        }
        return res.status;
      }),
    );
    // At most six are taken (two drawing, four waiting); how many exactly depends on when each request
    // reaches the queue (the label route reads the door's and cash's words first, a round trip each on
    // PostgreSQL), so the bound is what is checked: some of the flood is refused, none fails otherwise.
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(6);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);
    expect((await polite1).status).toBe(200);
  }, 180_000);
});
