/**
 * Browser-test harness shared by the admin/depot and driver-app suites: builds the PWA once, serves it
 * with the real API from createApp on a temporary SQLite file, seeds users, and starts Chromium
 * (playwright-core + Debian's /usr/bin/chromium, STACK.md) with a fresh profile per context.
 */
import { serve, type ServerType } from '@hono/node-server';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createApp, type CourierApp } from '../../server/app';
import { systemClock, type Clock } from '../../server/clock';
import { openDatabase, type Db } from '../../server/db/client';
import { company, user } from '../../server/db/schema/index';
import { diskFileStore } from '../../server/files';
import { hashPasswordSync } from '../../server/services/auth/passwords';
import type { Role } from '../../shared/roles';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCREENSHOTS = join(ROOT, 'screenshots');
export const PASSWORD = 'browser-test-pass-1';

export const DESKTOP = { width: 1366, height: 768 } as const;
export const TABLET = { width: 1024, height: 768 } as const;
export const PHONE = { width: 390, height: 844 } as const;

const run = promisify(execFile);
// Cheap hashes keep seeding fast; production uses the default cost.
const HASH = hashPasswordSync(PASSWORD, 1024);

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * The built PWA. Reuses `dist/` when it is newer than every source file of client/ and shared/ and
 * vite.config.ts; otherwise builds into a temporary directory (never touching dist/, which a
 * colleague's `npm start` may be serving).
 */
/**
 * One production build per change of the sources, shared by every browser suite: built into a
 * fresh directory under a lock, then published by renaming, so parallel suites never see it
 * half-written. NODE_ENV is forced to production: under vitest it is `test`, which would make a
 * development build without a service worker.
 */
export async function buildPwa(): Promise<string> {
  const sources = Math.max(
    newestMtime(join(ROOT, 'client')),
    newestMtime(join(ROOT, 'shared')),
    newestMtime(join(ROOT, 'scripts')),
    statSync(join(ROOT, 'vite.config.ts')).mtimeMs,
  );
  // One build per checkout: worktrees side by side must never run each other's build.
  const out = join(tmpdir(), `courier-browser-dist-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}`);
  const fresh = () => existsSync(join(out, '.built-at')) && statSync(join(out, '.built-at')).mtimeMs > sources;
  if (fresh()) return out;
  const lock = `${out}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      /* another suite is building */
    }
    if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
    await new Promise((r) => setTimeout(r, 500));
  }
  try {
    if (fresh()) return out;
    const staging = mkdtempSync(join(tmpdir(), 'courier-browser-build-'));
    await run(
      process.execPath,
      [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', staging, '--emptyOutDir', '--logLevel', 'warn'],
      {
        cwd: ROOT,
        maxBuffer: 32 * 1024 * 1024,
        timeout: 240_000,
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    if (!existsSync(join(staging, 'sw.js'))) throw new Error('the PWA build has no service worker');
    writeFileSync(join(staging, '.built-at'), new Date().toISOString());
    rmSync(out, { recursive: true, force: true });
    renameSync(staging, out);
    return out;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface Seeded {
  id: number;
  email: string;
  name: string;
  role: Role;
  companyId: number | null;
}

export interface TestServer {
  url: string;
  db: Db;
  /** The app's dependencies (config, writes...), for suites that run its background work (message dispatcher). */
  deps: CourierApp['deps'];
  addCompany(name: string, code: string): Promise<number>;
  addUser(role: Role, opts?: { name?: string; email?: string; companyId?: number | null }): Promise<Seeded>;
  /** API call as a user (logs in once per user and caches the token). */
  api<T = Record<string, unknown>>(who: Seeded, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  token(who: Seeded): Promise<string>;
  close(): Promise<void>;
}

let seq = 0;

/**
 * The real server: createApp on a temporary SQLite file, the build at `/`, on a free port.
 * `publicUrl: true` makes its own address the configured PUBLIC_URL (links in messages); `clock`
 * replaces the system clock (a running clock set to another hour). TIME_ZONE is UTC, as in the server
 * tests (test/helpers/app.ts): these suites compute their days as UTC days (issue 31 has its own tests).
 */
export async function startServer(staticDir: string, opts: { publicUrl?: boolean; clock?: Clock } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'courier-browser-'));
  const db = await openDatabase(join(dir, 'courier.db'));
  const app = createApp({
    db,
    files: diskFileStore(join(dir, 'files')),
    clock: opts.clock ?? systemClock,
    config: { staticDir, timeZone: 'UTC' },
  });
  const server: ServerType = await new Promise((ok) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok(s));
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  if (opts.publicUrl) app.deps.config.publicUrl = url;
  const tokens = new Map<number, string>();

  const addCompany = async (name: string, code: string) => {
    const now = Date.now();
    return (
      await db
        .insert(company)
        .values({ name, code, email: `${code.toLowerCase()}@example.com`, status: 'active', created_at: now, updated_at: now })
        .returning()
        .get()
    ).id;
  };
  const addUser: TestServer['addUser'] = async (role, opts = {}) => {
    seq += 1;
    const now = Date.now();
    const email = opts.email ?? `${role}${seq}@example.com`;
    const name = opts.name ?? `${role.replace('_', ' ')} ${seq}`;
    const companyId = opts.companyId ?? null;
    const id = (
      await db
        .insert(user)
        .values({ name, email, role, company_id: companyId, password_hash: HASH, created_at: now, updated_at: now })
        .returning()
        .get()
    ).id;
    return { id, email, name, role, companyId };
  };
  const token = async (who: Seeded) => {
    const cached = tokens.get(who.id);
    if (cached) return cached;
    const res = await fetch(`${url}/api/auth/${who.role === 'driver' ? 'login' : 'web-login'}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: who.email, password: PASSWORD }),
    });
    const body = (await res.json()) as { token?: string };
    if (!res.ok || !body.token) throw new Error(`login of ${who.email} failed: ${res.status} ${JSON.stringify(body)}`);
    tokens.set(who.id, body.token);
    return body.token;
  };
  const api: TestServer['api'] = async (who, method, path, body) => {
    const res = await fetch(`${url}/api/${path.replace(/^\//, '')}`, {
      method,
      headers: { authorization: `Bearer ${await token(who)}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const close = async () => {
    await new Promise<void>((ok) => server.close(() => ok()));
    await db.$engine.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, db, deps: app.deps, addCompany, addUser, api, token, close };
}

/** Which API routes exist, from the OpenAPI document ("METHOD /path/"), to skip what has not landed. */
export async function apiRoutes(url: string): Promise<Set<string>> {
  const doc = (await (await fetch(`${url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const out = new Set<string>();
  for (const [path, ops] of Object.entries(doc.paths)) for (const m of Object.keys(ops)) out.add(`${m.toUpperCase()} ${path}`);
  return out;
}

/** A Sydney office's browser: its zone and locale, as the courier's people have them. */
export const SYDNEY = { locale: 'en-AU', timezoneId: 'Australia/Sydney' } as const;

export interface Browser {
  /**
   * A new context with its own fresh profile directory. Its people are the Sydney office's unless a
   * test says otherwise (a shipper in Perth, a phone left on UTC): the zone and locale the screens
   * are written for.
   */
  context(viewport?: { width: number; height: number }, opts?: { locale?: string; timezoneId?: string }): Promise<BrowserContext>;
  close(): Promise<void>;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

/** Chromium contexts with fresh temporary profiles; close() ends every browser and removes the profiles. */
export function browsers(extraArgs: string[] = []): Browser {
  const open: { ctx: BrowserContext; dir: string }[] = [];
  return {
    async context(viewport = DESKTOP, opts: { locale?: string; timezoneId?: string } = SYDNEY) {
      const dir = mkdtempSync(join(tmpdir(), 'courier-chromium-'));
      const ctx = await chromium.launchPersistentContext(dir, {
        executablePath: CHROMIUM,
        headless: true,
        // The context's locale reaches navigator.language and Intl; the date inputs' own dd/mm/yyyy
        // follows the browser's language, which only this flag sets.
        args: [...CHROMIUM_ARGS, ...extraArgs, ...(opts.locale ? [`--lang=${opts.locale}`] : [])],
        viewport,
        ...opts,
      });
      open.push({ ctx, dir });
      return ctx;
    },
    async close() {
      for (const { ctx, dir } of open.splice(0)) {
        await ctx.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Saves `screenshots/<name>-<width>.png` (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = join(SCREENSHOTS, `${name}-${page.viewportSize()?.width ?? 0}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Logs in through the real login form. */
export async function login(page: Page, baseUrl: string, who: Seeded): Promise<void> {
  await page.goto(`${baseUrl}/#/login`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Whether the server has a route, without relying on the OpenAPI document: an unknown route answers
 * 404 "No route for ...", a known one anything else (400 for an empty body, 401/403, ...).
 */
export async function routeExists(url: string, token: string, method: string, path: string): Promise<boolean> {
  const res = await fetch(`${url}/api/${path.replace(/^\//, '')}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: method === 'GET' ? undefined : '{}',
  });
  if (res.status !== 404) return true;
  const body = (await res.json().catch(() => ({}))) as { message?: string };
  return !/^No route for/.test(body.message ?? '');
}

/**
 * A hardware scanner's burst: every key of the code and Enter dispatched in one task, the way a
 * keyboard-wedge scanner delivers them. Playwright's typing on a loaded machine can leave gaps
 * longer than the scanner threshold (50 ms), which would make a focus-independent scan flaky.
 */
export async function scannerBurst(page: Page, code: string): Promise<void> {
  await page.evaluate((text) => {
    const target = document.activeElement ?? document.body;
    for (const key of [...text, 'Enter']) {
      target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      target.dispatchEvent(new KeyboardEvent('keyup', { key, bubbles: true, cancelable: true }));
    }
  }, code);
}
