/**
 * Issue 20: the rate limiter and the login throttle hold across server processes. On PostgreSQL
 * (WORKERS=N) their state is rows of the `throttle` table, each count one atomic upsert; two apps
 * on their own connection pools stand for two processes. The database implementations also run on
 * SQLite (one process), where they must behave exactly as the memory ones.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp, type CourierApp } from '../../server/app';
import { manualClock } from '../../server/clock';
import { openMemoryDatabase, PG_MIGRATIONS_DIR, postgresDb, type Db } from '../../server/db/client';
import { freshPostgresDatabase } from '../../server/db/engine/postgresDatabases';
import { company, pkg, throttle, user } from '../../server/db/schema/index';
import { diskFileStore } from '../../server/files/index';
import { ApiError } from '../../server/errors';
import { memoryRateLimiter, type RateLimiter } from '../../server/http/rateLimit';
import { databaseRateLimiter, pruneThrottle } from '../../server/http/sharedRateLimit';
import { hashPasswordSync } from '../../server/services/auth/passwords';
import {
  databaseLoginThrottle,
  FAILURE_MEMORY,
  IP_LIMIT,
  IP_WINDOW,
  memoryLoginThrottle,
  PAIR_FREE,
  type LoginThrottle,
} from '../../server/services/auth/throttle';
import { runSyncMaintenance } from '../../server/services/sync/maintenance';

const admin = process.env.TEST_DATABASE_URL;
const PASSWORD = 'correct-horse-42';
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

/** What a call ended with: 'ok', or the 429 and its retry_after. */
async function outcome(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError && err.status === 429)
      return `429/${String((err.details as { retry_after?: number } | undefined)?.retry_after ?? '')}`;
    throw err;
  }
}

describe('the database rate limiter (both engines)', () => {
  it('counts 100 parallel hits once each: exactly the limit gets through, the window restarts when it ended', async () => {
    const db = await openMemoryDatabase();
    const limiter = databaseRateLimiter(db);
    const results = await Promise.all(Array.from({ length: 100 }, () => outcome(() => limiter.hit('s:burst', 30, 60_000, T0))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(30);
    expect(results.filter((r) => r === '429/60')).toHaveLength(70);
    expect(await limiter.count('s:burst', T0)).toBe(100);
    expect(await limiter.count('s:burst', T0 + 59_999)).toBe(100);
    // The window ended: a new one starts with this hit.
    expect(await limiter.count('s:burst', T0 + 60_000)).toBe(0);
    await limiter.hit('s:burst', 30, 60_000, T0 + 60_000);
    expect(await limiter.count('s:burst', T0 + 60_000)).toBe(1);
    await limiter.refund('s:burst', T0 + 60_000);
    await limiter.refund('s:burst', T0 + 60_000);
    expect(await limiter.count('s:burst', T0 + 60_000)).toBe(0);
    await limiter.hit('s:other', 5, 1000, T0);
    await limiter.reset('s:other');
    expect(await limiter.count('s:other', T0)).toBe(0);
  });

  it('behaves as the memory limiter on a script of hits, refunds and resets', async () => {
    const db = await openMemoryDatabase();
    const script = async (l: RateLimiter) => {
      const out: (string | number)[] = [];
      for (let i = 0; i < 60; i++) {
        const now = T0 + i * 700;
        const key = `s:${i % 3}`;
        out.push(await outcome(() => l.hit(key, 4, 5_000, now)));
        if (i % 7 === 0) await l.refund(key, now);
        if (i % 19 === 0) await l.reset(`s:${(i + 1) % 3}`);
        out.push(await l.count(key, now));
      }
      return out;
    };
    expect(await script(databaseRateLimiter(db))).toEqual(await script(memoryRateLimiter()));
  });

  it('prunes only the rows that no longer mean anything, also from the maintenance job', async () => {
    const db = await openMemoryDatabase();
    const limiter = databaseRateLimiter(db);
    await limiter.hit('s:short', 5, 1000, T0);
    await limiter.hit('s:long', 5, 60_000, T0);
    expect(await pruneThrottle(db, T0 + 999)).toBe(0);
    expect(await pruneThrottle(db, T0 + 1000)).toBe(1);
    expect((await db.select().from(throttle).all()).map((r) => r.key)).toEqual(['s:long']);
    const clock = manualClock(T0 + 60_000);
    const app = createApp({ db, files: diskFileStore(mkdtempSync(join(tmpdir(), 'courier-thr-'))), clock });
    const result = await app.deps.writes.run(() => runSyncMaintenance(app.deps));
    expect(result.throttlePruned).toBe(1);
    expect(await db.select().from(throttle).all()).toEqual([]);
  });
});

describe('the database login throttle (both engines)', () => {
  it('lets exactly the free attempts of a parallel burst through, then refuses with the delay', async () => {
    const db = await openMemoryDatabase();
    const t = databaseLoginThrottle(db, databaseRateLimiter(db));
    const results = await Promise.all(Array.from({ length: 20 }, () => outcome(() => t.begin('login', 'a@x.test', '10.0.0.1', T0))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(PAIR_FREE + 1);
    expect(results.filter((r) => r === '429/1')).toHaveLength(20 - PAIR_FREE - 1);
    const row = await db.select().from(throttle).where(eq(throttle.key, 'login-pair:a@x.test|10.0.0.1')).get();
    expect(row).toMatchObject({ n: PAIR_FREE + 1, until_at: T0 + 1000, expires_at: T0 + FAILURE_MEMORY });
    // Every attempt counted against the address, the refused ones too.
    expect(await databaseRateLimiter(db).count('login-ip:10.0.0.1', T0)).toBe(20);
  });

  it('behaves as the memory throttle on a script of attackers, a botnet and the real user', async () => {
    const db = await openMemoryDatabase();
    const script = async (t: LoginThrottle) => {
      const out: string[] = [];
      let now = T0;
      const attempt = async (account: string, ip: string, right: boolean) => {
        let begun: Awaited<ReturnType<LoginThrottle['begin']>> | undefined;
        const r = await outcome(async () => {
          begun = await t.begin('login', account, ip, now);
        });
        if (right && begun) await begun.succeeded();
        out.push(`${account} ${ip} ${r}`);
      };
      await attempt('owner@x.test', '203.0.113.10', true); // the owner's own address becomes known
      for (let i = 0; i < 120; i++) {
        now += 400 + (i % 5) * 700;
        await attempt('owner@x.test', `10.4.0.${i % 13}`, false); // a botnet
        if (i % 4 === 0) await attempt('owner@x.test', '198.51.100.66', false); // one attacker
        if (i % 45 === 44) await attempt('owner@x.test', '203.0.113.10', true); // the owner, at home
        if (i % 17 === 0) await attempt('owner@x.test', '192.0.2.1', i === 68); // the owner, travelling
        if (i % 6 === 0) await attempt(`nobody${i}@x.test`, '10.4.0.1', false);
      }
      // Long after: failures are forgotten, the attacker's delay is over.
      now += FAILURE_MEMORY + 1;
      await attempt('owner@x.test', '198.51.100.66', false);
      await attempt('owner@x.test', '10.4.0.3', false);
      return out;
    };
    const shared = databaseRateLimiter(db);
    const fromDb = await script(databaseLoginThrottle(db, shared));
    const memory = memoryRateLimiter();
    expect(fromDb).toEqual(await script(memoryLoginThrottle(memory)));
    expect(fromDb.filter((r) => r.endsWith(' ok')).length).toBeGreaterThan(10);
    expect(fromDb.filter((r) => r.includes(' 429/')).length).toBeGreaterThan(10);
  });
});

/** Two apps, each on a connection pool of its own, on one PostgreSQL database: two server processes. */
async function twoApps(
  poolSize = 4,
): Promise<{ apps: [CourierApp, CourierApp]; dbs: [Db, Db]; clock: ReturnType<typeof manualClock>; email: string }> {
  const url = await freshPostgresDatabase(admin as string, PG_MIGRATIONS_DIR);
  const dbs: [Db, Db] = [postgresDb(url, { poolSize }), postgresDb(url, { poolSize })];
  const clock = manualClock(T0);
  const email = 'driver@thr.test';
  await dbs[0]
    .insert(user)
    .values({
      name: 'Driver',
      email,
      role: 'driver',
      password_hash: hashPasswordSync(PASSWORD, 1024),
      created_at: T0,
      updated_at: T0,
    })
    .run();
  const make = (db: Db) =>
    createApp({ db, files: diskFileStore(mkdtempSync(join(tmpdir(), 'courier-thr-'))), clock, config: { trustProxy: 1 } });
  return { apps: [make(dbs[0]), make(dbs[1])], dbs, clock, email };
}

async function login(app: CourierApp, email: string, password: string, ip: string): Promise<number> {
  const res = await app.request('/api/auth/login/', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
  await res.text();
  return res.status;
}

describe.skipIf(!admin)('two apps (processes) on one PostgreSQL database', () => {
  it('a wrong-password burst split across both is counted once: the limit holds, and refuses the right password too', async () => {
    const { apps, email } = await twoApps();
    const ip = '198.51.100.66';
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => login(apps[i % 2] as CourierApp, email, 'wrong-password', ip)));
    expect(burst.filter((s) => s === 401)).toHaveLength(PAIR_FREE + 1);
    expect(burst.filter((s) => s === 429)).toHaveLength(40 - PAIR_FREE - 1);
    expect(await login(apps[0], email, PASSWORD, ip)).toBe(429);
    expect(await login(apps[1], email, PASSWORD, ip)).toBe(429);
    // The owner at another address is not held up by this attacker.
    expect(await login(apps[1], email, PASSWORD, '203.0.113.10')).toBe(200);
  });

  it('the per-address limit holds across both apps: guesses at many accounts, then the right password is refused', async () => {
    const { apps, email, clock } = await twoApps();
    const ip = '10.9.0.1';
    const guesses = await Promise.all(
      Array.from({ length: IP_LIMIT }, (_, i) => login(apps[i % 2] as CourierApp, `nobody${i}@thr.test`, 'wrong', ip)),
    );
    expect(guesses.every((s) => s === 401)).toBe(true);
    expect(await login(apps[0], email, PASSWORD, ip)).toBe(429);
    expect(await login(apps[1], email, PASSWORD, ip)).toBe(429);
    expect(await apps[1].deps.limiter.count(`login-ip:${ip}`, clock.now())).toBe(IP_LIMIT + 2);
    clock.advance(IP_WINDOW);
    expect(await login(apps[1], email, PASSWORD, ip)).toBe(200);
    // A right password gives its attempt back, in the other app's view too.
    expect(await apps[0].deps.limiter.count(`login-ip:${ip}`, clock.now())).toBe(0);
  });

  it("100 parallel hits through both apps' limiters: exactly the limit gets through", async () => {
    const { apps, clock } = await twoApps();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        outcome(() => (apps[i % 2] as CourierApp).deps.limiter.hit('track:10.0.0.9', 30, 60_000, clock.now())),
      ),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(30);
    expect(await apps[0].deps.limiter.count('track:10.0.0.9', clock.now())).toBe(100);
  });

  it('a count made inside a unit of work that fails stays counted (it runs outside the unit)', async () => {
    const { apps, clock } = await twoApps();
    const deps = apps[0].deps;
    const failed = deps.writes.run(async () => {
      await deps.limiter.hit('recipient:10.0.0.7', 1, 60_000, clock.now());
      await deps.limiter.hit('recipient:10.0.0.7', 1, 60_000, clock.now());
    });
    await expect(failed).rejects.toThrow(/Too many/);
    expect(await apps[1].deps.limiter.count('recipient:10.0.0.7', clock.now())).toBe(2);
  });

  it('public recipient actions count before their unit: a burst on a 2-connection pool is answered, each call counted once', async () => {
    const { apps, dbs, clock } = await twoApps(2);
    const [app] = apps;
    const co = (
      await dbs[0]
        .insert(company)
        .values({ name: 'Shipper', code: 'SHP', email: 'co@thr.test', status: 'active', created_at: T0, updated_at: T0 })
        .returning()
        .get()
    ).id;
    await dbs[0]
      .insert(user)
      .values({
        name: 'Shipper',
        email: 'shipper@thr.test',
        role: 'company',
        company_id: co,
        password_hash: hashPasswordSync(PASSWORD, 1024),
        created_at: T0,
        updated_at: T0,
      })
      .run();
    const call = async (method: string, path: string, token: string | null, body?: unknown) => {
      const res = await app.request(path, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          'content-type': 'application/json',
          'x-forwarded-for': '10.7.0.1',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const token = (await call('POST', '/api/auth/web-login/', null, { email: 'shipper@thr.test', password: PASSWORD })).body
      .token as string;
    const parcel = (
      await dbs[0]
        .insert(pkg)
        .values({ hawb: 'THR-1', customer_name: 'R', company_id: co, created_at: T0, updated_at: T0 })
        .returning()
        .get()
    ).id;
    const link = (await call('GET', `/api/package/${parcel}/tracking-link/`, token)).body.token as string;
    // Each action a unit holding one of the two connections: counted inside it, the count would wait for the pool for good.
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call('POST', `/api/public/track/${link}/instructions/`, null, { instructions: `Door ${i}` })),
    );
    expect(burst.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(await apps[1].deps.limiter.count('recipient:10.7.0.1', clock.now())).toBe(12);
  });
});
