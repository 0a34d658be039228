/**
 * The Content-Security-Policy (`script-src 'self'`, no inline script, no CDN) in real Chromium: the
 * built PWA's login page and Swagger UI at /api/docs both work with every request to another host
 * refused (an offline installation), and the browser reports no policy violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, browsers, buildPwa, hasChromium, screenshot, startServer, type Browser, type TestServer } from './harness';

describe.skipIf(!hasChromium)('CSP: scripts only from this server, docs offline', () => {
  let srv: TestServer;
  let br: Browser;

  beforeAll(async () => {
    srv = await startServer(await buildPwa());
    br = browsers();
  }, 600_000);
  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  /** A page whose requests to any other origin are refused, with the CSP reports and those requests collected. */
  async function offlinePage(viewport: { width: number; height: number }) {
    const ctx = await br.context(viewport);
    const elsewhere: string[] = [];
    const violations: string[] = [];
    await ctx.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(srv.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const page: Page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });
    return { page, elsewhere, violations };
  }

  it('the CSP header is strict', async () => {
    const res = await fetch(`${srv.url}/api/docs`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const scripts = /script-src ([^;]*)/.exec(csp)?.[1];
    expect(scripts).toBe("'self'");
    expect(csp).not.toContain('cdn');
    expect(await res.text()).not.toMatch(/<script>(?!<\/script>)|<script[^>]*>[^<]+<\/script>/);
  });

  it('Swagger UI renders from the package with no other host reachable', { timeout: 90_000 }, async () => {
    const { page, elsewhere, violations } = await offlinePage(DESKTOP);
    await page.goto(`${srv.url}/api/docs`);
    await page.locator('.swagger-ui .info .title').first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 30_000 });
    console.log(`[csp] screenshot ${await screenshot(page, 'csp-api-docs')}`);
    // Swagger UI renders tags as they scroll into view; the first ones are enough to show it read the document.
    expect(await page.locator('.swagger-ui .info .title').first().textContent()).toContain('Courier API');
    expect(await page.locator('.opblock-summary-path', { hasText: '/auth/web-login/' }).count()).toBe(1);
    expect(violations).toEqual([]);
    expect(elsewhere).toEqual([]);
  });

  it('the PWA login page works under the policy (no inline script in index.html)', async () => {
    const html = await (await fetch(`${srv.url}/`)).text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, elsewhere, violations } = await offlinePage(viewport);
      await page.goto(`${srv.url}/`);
      await page.locator('input[type="password"]').first().waitFor({ state: 'visible', timeout: 30_000 });
      console.log(`[csp] screenshot ${await screenshot(page, 'csp-login')}`);
      expect(violations).toEqual([]);
      expect(elsewhere).toEqual([]);
    }
  });
});
