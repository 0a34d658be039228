/**
 * Kept sessions (server/services/auth/sessionCache.ts) must stop exactly when a fresh read would:
 * each way a session ends is performed here on a token the server has just used (so it is kept),
 * and the very next request with it is refused. On PostgreSQL nothing is kept and the same calls
 * read every time; the engine-level cases are SQLite's.
 */
import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { manualClock } from '../../server/clock';
import { openDatabase, sqliteOf } from '../../server/db/client';
import { authToken, user } from '../../server/db/schema/index';
import { diskFileStore } from '../../server/files/index';
import { hashPasswordSync } from '../../server/services/auth/passwords';
import { sessionCache } from '../../server/services/auth/sessionCache';
import { loadSession, TOUCH_EVERY } from '../../server/services/auth/session';
import { makeApp, PASSWORD } from '../helpers/app';

const onSqlite = !process.env.TEST_DATABASE_URL;

describe('a kept session ends when the session would', () => {
  it('logout, a disabled driver, an archived one and a suspended company each refuse the next request', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const ok = async (token: string) => (await t.json('GET', '/api/profile/', token)).status;

    const out = await t.login('driver');
    expect(await ok(out.token)).toBe(200);
    expect((await t.json('POST', '/api/auth/logout/', out.token)).status).toBe(200);
    expect(await ok(out.token)).toBe(401);

    const off = await t.login('driver');
    expect(await ok(off.token)).toBe(200);
    expect((await t.json('POST', `/api/employee/${off.id}/status-change/`, admin.token, { is_active: false })).status).toBe(200);
    expect(await ok(off.token)).toBe(401);

    const gone = await t.login('driver');
    expect(await ok(gone.token)).toBe(200);
    expect((await t.json('POST', '/api/employee/archive-employee/', admin.token, { deleted: [gone.id] })).status).toBe(200);
    expect(await ok(gone.token)).toBe(401);

    const shipper = await t.login('company');
    expect(await ok(shipper.token)).toBe(200);
    const companyId = (await t.db.select().from(user).where(eq(user.id, shipper.id)).get())!.company_id!;
    expect((await t.json('POST', `/api/company/${companyId}/status-change/`, admin.token, { status: 'suspended' })).status).toBe(200);
    expect(await ok(shipper.token)).toBe(401);

    // A role changed under a kept session is the new role from the next request.
    const staff = await t.login('supervisor');
    expect((await t.json('GET', '/api/warehouse/', staff.token)).status).toBe(200);
    await t.db.update(user).set({ role: 'driver' }).where(eq(user.id, staff.id)).run();
    expect((await t.json<{ role: string }>('GET', '/api/profile/', staff.token)).body.role).toBe('driver');
  });

  it('expiry and the staff idle time still count on a kept session, and its use is still recorded', async () => {
    const t = await makeApp({ config: { staffIdleMs: 60 * 60_000 } });
    const staff = await t.login('supervisor');
    const lastUsed = async () => (await t.db.select().from(authToken).where(eq(authToken.user_id, staff.id)).get())!.last_used_at;
    expect((await t.json('GET', '/api/profile/', staff.token)).status).toBe(200);
    const first = await lastUsed();
    t.clock.advance(TOUCH_EVERY + 1);
    expect((await t.json('GET', '/api/profile/', staff.token)).status).toBe(200);
    await t.app.deps.writes.flush();
    expect(await lastUsed()).toBe(t.clock.now());
    expect(await lastUsed()).not.toBe(first);
    // Used every 40 minutes it stays alive on its kept copy too: each use counts from itself.
    for (let i = 0; i < 3; i++) {
      t.clock.advance(40 * 60_000);
      expect((await t.json('GET', '/api/profile/', staff.token)).status).toBe(200);
    }
    t.clock.advance(61 * 60_000);
    expect((await t.json('GET', '/api/profile/', staff.token)).status).toBe(401);

    const driver = await t.login('driver');
    expect((await t.json('GET', '/api/profile/', driver.token)).status).toBe(200);
    t.clock.advance(31 * 24 * 3600_000);
    expect((await t.json('GET', '/api/profile/', driver.token)).status).toBe(401);
  });

  it.runIf(onSqlite)('a group commit that failed takes back what a kept session was read from', async () => {
    let failNext = false;
    const t = await makeApp({
      writeBatch: {
        beforeCommit: () => {
          if (failNext) {
            failNext = false;
            throw new Database.SqliteError('disk I/O error', 'SQLITE_IOERR');
          }
        },
      },
    });
    const d = await t.login('driver');
    await t.db.update(user).set({ is_active: false }).where(eq(user.id, d.id)).run();
    expect((await t.json('GET', '/api/profile/', d.token)).status).toBe(401);
    failNext = true;
    // The driver is re-enabled in a batch that will fail, and the session is read (and kept) while
    // that batch is open: reads share the connection, so it sees the batch's row.
    let during: Awaited<ReturnType<typeof loadSession>> = null;
    const enable = t.app.deps.writes.run(async () => {
      await t.db.update(user).set({ is_active: true }).where(eq(user.id, d.id)).run();
      during = await loadSession(t.db, d.token, t.clock.now());
    });
    await expect(enable).rejects.toThrow('disk I/O error');
    expect(during).not.toBeNull();
    expect((await t.db.select().from(user).where(eq(user.id, d.id)).get())!.is_active).toBe(false);
    expect((await t.json('GET', '/api/profile/', d.token)).status).toBe(401);
  });

  it.runIf(onSqlite)('a write from another connection (a script, the sqlite3 shell) ends a kept session at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courier-session-cache-'));
    const path = join(dir, 'courier.db');
    const db = await openDatabase(path);
    const clock = manualClock();
    const app = createApp({ db, files: diskFileStore(join(dir, 'files')), clock, config: { publicUrl: 'https://courier.test' } });
    const now = clock.now();
    await db
      .insert(user)
      .values({
        name: 'Dee',
        email: 'dee@example.com',
        role: 'driver',
        password_hash: hashPasswordSync(PASSWORD, 1024),
        created_at: now,
        updated_at: now,
      })
      .run();
    const login = await app.request('/api/auth/login/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dee@example.com', password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const profile = async () => (await app.request('/api/profile/', { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await profile()).toBe(200);
    expect(await profile()).toBe(200);
    // Another connection (no function of this process registered): its write must still work, and be seen.
    const other = new Database(path);
    other.pragma('busy_timeout = 5000');
    other.prepare('update auth_token set revoked_at = ? where revoked_at is null').run(now);
    other.close();
    expect(await profile()).toBe(401);
    await db.$engine.close();
  });
});

describe.runIf(onSqlite)('the change stamp and the cache', () => {
  it("moves on writes to watched tables (not on a recorded use alone), on other connections' commits and on failed batches", async () => {
    const t = await makeApp();
    const sqlite = sqliteOf(t.db)!;
    const stamp = t.db.$engine.watch([{ name: 'auth_token', ignore: ['last_used_at'] }, { name: 'user' }])!;
    const d = await t.login('driver');
    let last = stamp();
    const moved = () => {
      const now = stamp();
      const was = now !== last;
      last = now;
      return was;
    };
    await t.db.update(authToken).set({ last_used_at: 5 }).where(eq(authToken.user_id, d.id)).run();
    expect(moved()).toBe(false);
    await t.db.update(authToken).set({ revoked_at: 5 }).where(eq(authToken.user_id, d.id)).run();
    expect(moved()).toBe(true);
    await t.db.update(user).set({ phone: '1' }).where(eq(user.id, d.id)).run();
    expect(moved()).toBe(true);
    sqlite.exec('delete from auth_token');
    expect(moved()).toBe(true);
    // A table nobody watches moves nothing.
    sqlite.exec('create table scratch (x integer); insert into scratch values (1)');
    expect(moved()).toBe(false);
    // A column added to a watched table is watched from the next stamp: the triggers follow the table.
    sqlite.exec('alter table user add column nickname text');
    expect(stamp()).not.toBeNull();
    last = stamp();
    sqlite.prepare('update user set nickname = ? where id = ?').run('Dee', d.id);
    expect(moved()).toBe(true);
  });
});

describe('the session cache', () => {
  it('keeps at most its capacity, oldest out first, and drops an entry read at an old stamp', () => {
    let stamp: string | null = '0';
    const cache = sessionCache<string>(() => stamp, 2);
    const known = (s: string) => ({ session: s, expiresAt: 10, lastUsed: 0 });
    cache.set('a', known('A'), '0');
    cache.set('b', known('B'), '0');
    cache.set('c', known('C'), '0');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.session).toBe('B');
    stamp = '1';
    expect(cache.get('c')).toBeUndefined();
    cache.set('c', known('C'), '0');
    expect(cache.get('c')).toBeUndefined();
    // While the engine cannot vouch for its stamp, nothing is kept and nothing kept is used.
    cache.set('d', known('D'), '1');
    expect(cache.get('d')?.session).toBe('D');
    stamp = null;
    expect(cache.get('d')).toBeUndefined();
    cache.set('e', known('E'), null);
    stamp = '1';
    expect(cache.get('e')).toBeUndefined();
  });
});
