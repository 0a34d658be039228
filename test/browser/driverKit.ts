/**
 * Steps the driver-app browser suites share: seeding a day, logging in on the phone, drawing a
 * signature, reading the phone's outbox straight from IndexedDB, and a Chromium this test starts
 * itself (so it can SIGKILL the whole browser and relaunch it on the same profile).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, PASSWORD, type Seeded, type TestServer } from './harness';

export interface DayParcel {
  id: number;
  hawb: string;
  receiver: string;
}

/** Parcels of one company assigned to the driver, with real-looking addresses (suburb, postcode, state in the text). */
export async function seedDay(srv: TestServer, admin: Seeded, driver: Seeded, hawbs: string[]): Promise<DayParcel[]> {
  const co = await srv.addCompany(`Co ${hawbs[0]}`, `C${hawbs[0]!.replace(/\W/g, '').slice(-6)}`);
  const out: DayParcel[] = [];
  for (const [i, hawb] of hawbs.entries()) {
    const receiver = `Receiver ${hawb.slice(-1)}${i}`;
    const r = await srv.api<{ id: number }>(admin, 'POST', 'package/', {
      hawb,
      company: co,
      customer_name: receiver,
      customer_address: `${10 + i} George Street, Sydney NSW 2000`,
      customer_phone: '+61 400 000 100',
      latitude: -33.86 - i * 0.002,
      longitude: 151.2,
    });
    expect(r.status).toBe(201);
    out.push({ id: r.body.id, hawb, receiver });
  }
  expect(
    (await srv.api(admin, 'POST', 'assign-package/assign-driver/', { driver: driver.id, packages: out.map((p) => p.id) })).status,
  ).toBe(200);
  return out;
}

export async function loginDriver(page: Page, url: string, driver: Seeded, expectToLoad: number): Promise<void> {
  await page.goto(`${url}/#/driver`);
  await page.getByLabel('E-mail').fill(driver.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.locator('[data-testid=count-to-load]', { hasText: String(expectToLoad) }).waitFor({ timeout: 30_000 });
}

export async function drawSignature(page: Page): Promise<void> {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('signature pad not visible');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 20, y);
  await page.mouse.down();
  for (let i = 1; i <= 16; i++) await page.mouse.move(box.x + 20 + i * ((box.width - 40) / 16), y + Math.sin(i / 2) * 30, { steps: 2 });
  await page.mouse.up();
}

export interface PhoneRow {
  status: string;
  path: string;
  label: string;
  seq: number;
  blobRefs: string[];
}

/** The outbox as stored in the phone's IndexedDB (what survives a crash), oldest first. */
export function phoneOutbox(page: Page): Promise<PhoneRow[]> {
  return page.evaluate(
    () =>
      new Promise<PhoneRow[]>((resolve, reject) => {
        const req = indexedDB.open('courier');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('outbox')) {
            db.close();
            resolve([]);
            return;
          }
          const all = db.transaction('outbox').objectStore('outbox').getAll();
          all.onsuccess = () => {
            db.close();
            resolve((all.result as PhoneRow[]).map(({ status, path, label, seq, blobRefs }) => ({ status, path, label, seq, blobRefs })));
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

export async function waitChip(page: Page, attrs: Record<string, string | number>, timeout = 30_000): Promise<void> {
  const sel = Object.entries(attrs)
    .map(([k, v]) => `[data-${k}="${v}"]`)
    .join('');
  await page.locator(`[data-testid=sync-chip]${sel}`).waitFor({ timeout });
}

/**
 * The driver taps "Send and refresh now" on the Sync screen and waits for a pass that began after
 * the tap to finish, as they would watch "Last synced" change: only then is the office's news on
 * the phone (a pass already running when they tapped may have pulled before it).
 */
export async function syncNow(page: Page, timeout = 60_000): Promise<void> {
  const tapped = await page.evaluate(() => Date.now());
  await page.getByTestId('sync-now').click();
  await page.waitForFunction(
    (t) => {
      const at = Number(document.querySelector('[data-testid=sync-last]')?.getAttribute('data-at') ?? 0);
      const busy = document.querySelector('[data-testid=sync-now]')?.getAttribute('aria-busy') === 'true';
      return at > t && !busy;
    },
    tapped,
    { timeout, polling: 100 },
  );
}

/** A Chromium started here (not by Playwright), driven over CDP: it can be killed like a phone's browser dies. */
export interface OwnChromium {
  proc: ChildProcess;
  browser: Browser;
  ctx: BrowserContext;
  kill(): Promise<void>;
}

export async function ownChromium(profile: string): Promise<OwnChromium> {
  const proc = spawn(
    CHROMIUM,
    [...CHROMIUM_ARGS, '--headless=new', `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    },
  );
  const ws = await new Promise<string>((ok, fail) => {
    let buf = '';
    proc.stderr!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(buf);
      if (m) ok(m[1]!);
    });
    proc.on('exit', (code) => fail(new Error(`chromium exited (${code}): ${buf.slice(-2000)}`)));
  });
  const browser = await chromium.connectOverCDP(ws);
  const ctx = browser.contexts()[0]!;
  const kill = async () => {
    const exited = new Promise((ok) => proc.once('exit', ok));
    // The whole process group: browser, renderers, GPU and network services die at once, like an OOM kill.
    try {
      process.kill(-(proc.pid as number), 'SIGKILL');
    } catch {
      /* already gone */
    }
    await exited;
  };
  return { proc, browser, ctx, kill };
}

/**
 * A switchable front for the real server, on its own port (the origin the phone knows): `pass`
 * forwards every connection, `down` closes the port (a dead server: connection refused), `busy`
 * answers every request 503 (a server that answers but cannot take work).
 */
export interface Front {
  url: string;
  mode(m: 'pass' | 'down' | 'busy'): Promise<void>;
  close(): Promise<void>;
}

export async function front(backendUrl: string): Promise<Front> {
  const net = await import('node:net');
  const backend = new URL(backendUrl);
  let current: 'pass' | 'down' | 'busy' = 'pass';
  const sockets = new Set<import('node:net').Socket>();
  const body = JSON.stringify({ success: false, message: 'Service temporarily unavailable', code: 'unavailable', errors: [] });
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (current === 'busy') {
      client.once('data', () => {
        client.end(
          `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      });
      return;
    }
    const upstream = net.connect(Number(backend.port), backend.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as import('node:net').AddressInfo).port;
  const dropAll = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    async mode(m) {
      if (m === current) return;
      const wasDown = current === 'down';
      current = m;
      dropAll();
      if (m === 'down') await new Promise<void>((ok) => server.close(() => ok()));
      else if (wasDown) await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
    },
    async close() {
      dropAll();
      if (current !== 'down') await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
