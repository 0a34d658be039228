/**
 * A depot tablet keeps its screens offline although they are not in the service worker's precache
 * (that is the driver's phone's, kept small for its first load): the depot app, once loaded with
 * signal, caches its own chunks (depot-precache.json) into the cache the service worker serves
 * build files from first. Real Chromium, the production build, the real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browsers, buildPwa, hasChromium, login, screenshot, startServer, TABLET, type Browser, type Seeded, type TestServer } from './harness';

describe.skipIf(!hasChromium)('depot tablet offline', () => {
  let srv: TestServer;
  let br: Browser;
  let depot: Seeded;

  beforeAll(async () => {
    srv = await startServer(await buildPwa());
    depot = await srv.addUser('depot_manager', { name: 'Dora Depot' });
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('loads the depot once with signal, then reloads it and opens its scanner code with none', async () => {
    const list = (await (await fetch(`${srv.url}/depot-precache.json`)).json()) as { files: string[] };
    const precache = await (await fetch(`${srv.url}/sw.js`)).text();
    // The list is the depot's own: none of it is in the service worker's precache (the driver's phone
    // does not download it), and it holds the depot chunk and the camera scanner loaded on use.
    expect(list.files.length).toBeGreaterThan(1);
    for (const f of list.files) expect(precache).not.toContain(f.slice(1));
    expect(list.files.some((f) => /\/depot-[\w-]+\.js$/.test(f))).toBe(true);

    const ctx = await br.context(TABLET);
    const page = await ctx.newPage();
    await login(page, srv.url, depot);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(`${srv.url}/#/depot/inbound`);
    await page.locator('#scan-box').waitFor();
    await page.locator('[data-testid=depot-offline][data-state=ready]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('depot-offline').textContent()).toBe('Works offline');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await screenshot(page, 'depot-offline-ready');

    await ctx.setOffline(true);
    await page.reload();
    await page.locator('#scan-box').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(await page.getByText('could not be loaded').count()).toBe(0);
    await page.locator('[data-testid=depot-offline][data-state=ready]').waitFor();
    // Every file of the list, the scanner library included, answers with no network at all.
    const answers = await page.evaluate(async (files) => Promise.all(files.map(async (f) => {
      try { return (await fetch(f)).status; } catch { return 0; }
    })), list.files);
    expect(answers).toEqual(list.files.map(() => 200));
    // A scan typed with no signal is kept to retry, not lost.
    await page.locator('#scan-box').fill('DEP-OFF-1');
    await page.locator('#scan-box').press('Enter');
    await page.getByText('Not sent — offline').first().waitFor();
    await screenshot(page, 'depot-offline-reloaded');
    await ctx.setOffline(false);
  }, 180_000);
});
