/**
 * Every way a session ends must end it at once, also after the hot path has run (issue 30 §1): a
 * scan, a delivery and a recorded use are "small" units of work, and on SQLite those once switched
 * `temp_store`, which silently dropped the TEMP triggers that cleared the session cache; from then on
 * a logged-out, deactivated or demoted session kept working. Each revocation below is performed on a
 * session the server has just used (so it is kept, where the engine keeps sessions), after each of
 * the three hot paths, on SQLite and on PostgreSQL (the suite's second run), in one process and
 * across two (a real server/main.ts process on the same database).
 */
import { eq } from 'drizzle-orm';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { manualClock } from '../../server/clock';
import { openDatabase, PG_MIGRATIONS_DIR, sqliteOf, type Db } from '../../server/db/client';
import { freshPostgresDatabase } from '../../server/db/engine/postgresDatabases';
import { pkg, user } from '../../server/db/schema/index';
import { diskFileStore } from '../../server/files/index';
import { hashPasswordSync } from '../../server/services/auth/passwords';
import { TOUCH_EVERY } from '../../server/services/auth/session';
import { launchServer, type LaunchedServer } from '../helpers/server';
import { makeApp, PASSWORD } from '../helpers/app';

type Call = (
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
) => Promise<{ status: number; body: Record<string, unknown> }>;

interface Side {
  call: Call;
  /** Lets a kept session's last use fall due (the manual clock in-process; real time can't be moved in another process). */
  advance?: (ms: number) => void;
}

const HASH = hashPasswordSync(PASSWORD, 1024);
let seq = 0;

/** A user straight in the database (either side reads it), then a real login through `side`. */
async function person(db: Db, side: Side, role: string, companyId: number | null = null) {
  seq += 1;
  const email = `rev-${role}-${seq}-${process.pid}@example.com`;
  const now = Date.now();
  const id = (
    await db
      .insert(user)
      .values({ name: `${role} ${seq}`, email, role, company_id: companyId, password_hash: HASH, created_at: now, updated_at: now })
      .returning()
      .get()
  ).id;
  return { id, email, token: await login(side, email, role) };
}

async function login(side: Side, email: string, role: string): Promise<string> {
  const res = await side.call('POST', role === 'driver' ? '/api/auth/login/' : '/api/auth/web-login/', null, { email, password: PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

const HOT_PATHS = ['scan', 'delivery', 'touch'] as const;
type HotPath = (typeof HOT_PATHS)[number];

/** Runs one hot path on `side`: the small units a driver's day is made of. */
async function hotPath(db: Db, side: Side, admin: string, kind: HotPath): Promise<void> {
  const driver = await person(db, side, 'driver');
  if (kind === 'touch') {
    expect((await side.call('GET', '/api/profile/', driver.token)).status).toBe(200);
    side.advance?.(TOUCH_EVERY + 1);
    // A second process cannot have its clock moved: a new session's first use is recorded at once.
    expect((await side.call('GET', '/api/profile/', driver.token)).status).toBe(200);
    return;
  }
  seq += 1;
  const hawb = `REV${seq}X${process.pid}`;
  const made = await side.call('POST', '/api/package/', admin, { hawb, customer_name: 'Receiver' });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.id as number;
  expect((await side.call('POST', '/api/assign-package/assign-driver/', admin, { driver: driver.id, packages: [id] })).status).toBe(200);
  expect((await side.call('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: hawb })).status).toBe(200);
  if (kind === 'delivery') {
    const done = await side.call('POST', `/api/package-delivered/${id}/deliver/`, driver.token, {
      note: 'front door',
      recipient_name: 'Kim',
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await db.select({ status: pkg.status }).from(pkg).where(eq(pkg.id, id)).get())!.status).toBe('delivered');
  }
}

const works = async (side: Side, token: string) => (await side.call('GET', '/api/profile/', token)).status;

/**
 * Every revocation path. `act` performs each one, `check` is asked afterwards (the same process or
 * the other one); the session revoked was used on `check` just before, so it is kept there.
 */
async function everyRevocation(db: Db, act: Side, check: Side, admin: string): Promise<void> {
  // Logout.
  const out = await person(db, check, 'driver');
  expect(await works(check, out.token)).toBe(200);
  expect((await act.call('POST', '/api/auth/logout/', out.token)).status).toBe(200);
  expect(await works(check, out.token), 'logout').toBe(401);

  // Signing out one device: by its owner from another device, and by an admin.
  const owner = await person(db, check, 'supervisor');
  const phone = await login(check, owner.email, 'supervisor');
  const tablet = await login(check, owner.email, 'supervisor');
  for (const token of [phone, tablet]) expect(await works(check, token)).toBe(200);
  const own = (await act.call('GET', '/api/auth/sessions/', owner.token)).body as { results: { id: number }[] };
  expect(own.results.length).toBe(3);
  // Sign out the newest two, one by its owner and one by an admin; which is which shows in what stops working.
  const [first, second] = (await sessionIds(act, admin, owner.id)).slice(-2);
  expect((await act.call('DELETE', `/api/auth/sessions/${first}/`, owner.token)).status).toBe(200);
  expect([await works(check, phone), await works(check, tablet)].filter((s) => s === 401).length, 'signing out a device').toBe(1);
  expect((await act.call('DELETE', `/api/employee/${owner.id}/sessions/${second}/`, admin)).status).toBe(200);
  expect([await works(check, phone), await works(check, tablet)], 'an admin signing out a device').toEqual([401, 401]);
  expect(await works(check, owner.token)).toBe(200);

  // A password change signs out the user's other sessions.
  const changer = await person(db, check, 'driver');
  const otherPhone = await login(check, changer.email, 'driver');
  expect(await works(check, otherPhone)).toBe(200);
  expect(
    (await act.call('POST', '/api/auth/change-password/', changer.token, { old_password: PASSWORD, new_password: 'a-new-password-42' }))
      .status,
  ).toBe(200);
  expect(await works(check, otherPhone), 'password change').toBe(401);
  // ...and the change by e-mail signs out every one.
  expect(await works(check, changer.token)).toBe(200);
  expect(
    (
      await act.call('POST', '/api/auth/password-change-with-email/', null, {
        email: changer.email,
        old_password: 'a-new-password-42',
        new_password: 'third-password-42',
      })
    ).status,
  ).toBe(200);
  expect(await works(check, changer.token), 'password change by e-mail').toBe(401);

  // Deactivating the account.
  const off = await person(db, check, 'driver');
  expect(await works(check, off.token)).toBe(200);
  expect((await act.call('POST', `/api/employee/${off.id}/status-change/`, admin, { is_active: false })).status).toBe(200);
  expect(await works(check, off.token), 'deactivation').toBe(401);

  // Suspending the company.
  const made = await act.call('POST', '/api/company/', admin, {
    name: `Rev Co ${seq}`,
    code: `RC${seq}P${process.pid}`,
    email: `revco${seq}-${process.pid}@example.com`,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const shipper = await person(db, check, 'company', made.body.id as number);
  expect(await works(check, shipper.token)).toBe(200);
  expect((await act.call('POST', `/api/company/${made.body.id as number}/status-change/`, admin, { status: 'suspended' })).status).toBe(
    200,
  );
  expect(await works(check, shipper.token), 'a suspended company').toBe(401);

  // Demoting a supervisor to driver: the audit log is closed to the old token from the next request.
  const boss = await person(db, check, 'supervisor');
  expect((await check.call('GET', '/api/audit-log/', boss.token)).status).toBe(200);
  const demoted = await act.call('PATCH', `/api/employee/${boss.id}/`, admin, { role: 'driver' });
  expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
  expect((await check.call('GET', '/api/audit-log/', boss.token)).status, 'a demoted supervisor').toBe(403);
}

async function sessionIds(side: Side, admin: string, userId: number): Promise<number[]> {
  const res = await side.call('GET', `/api/employee/${userId}/sessions/`, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const rows = (Array.isArray(res.body) ? res.body : (res.body as { results: unknown[] }).results) as { id: number }[];
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

function inProcess(t: {
  json: (m: string, p: string, tok?: string | null, b?: unknown) => Promise<{ status: number; body: unknown }>;
  clock: { advance(ms: number): void };
}): Side {
  return {
    call: async (m, p, tok, b) => {
      const r = await t.json(m, p, tok, b);
      return { status: r.status, body: r.body as Record<string, unknown> };
    },
    advance: (ms) => t.clock.advance(ms),
  };
}

describe('every way a session ends still ends it after the hot path has run', () => {
  for (const kind of HOT_PATHS) {
    it(`after a ${kind}`, async () => {
      const t = await makeApp();
      const side = inProcess(t);
      const admin = (await t.login('admin')).token;
      await hotPath(t.db, side, admin, kind);
      await everyRevocation(t.db, side, side, admin);
    });
  }

  it.runIf(!process.env.TEST_DATABASE_URL)('the session cache refuses to keep anything when its invalidation signal is gone', async () => {
    const t = await makeApp();
    const side = inProcess(t);
    const d = await t.login('driver');
    expect(await works(side, d.token)).toBe(200);
    // Someone drops a trigger the cache relies on (a migration rebuilding the table does this).
    const sqlite = sqliteOf(t.db)!;
    const trigger = sqlite
      .prepare("select name from sqlite_master where type = 'trigger' and tbl_name = 'auth_token' and name like 'courier_watch%'")
      .pluck()
      .get() as string;
    expect(trigger).toBeTruthy();
    sqlite.exec(`drop trigger "${trigger}"`);
    expect(await works(side, d.token)).toBe(200);
    // The revocation's write now moves no stamp, yet the next request must see it.
    sqlite.prepare('update auth_token set revoked_at = ? where user_id = ?').run(t.clock.now(), d.id);
    expect(await works(side, d.token)).toBe(401);
  });
});

describe('across two processes on one database', () => {
  const servers: LaunchedServer[] = [];
  afterAll(() => {
    for (const s of servers) s.child.kill('SIGKILL');
  });

  it('a session ended in one process is refused by the other at once, after both ran the hot path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courier-revoke-'));
    const admin = process.env.TEST_DATABASE_URL;
    const databaseUrl = admin ? await freshPostgresDatabase(admin, PG_MIGRATIONS_DIR) : null;
    const db = await openDatabase(databaseUrl ? { url: databaseUrl } : join(dir, 'courier.db'));
    const clock = manualClock(Date.now());
    const app = createApp({ db, files: diskFileStore(join(dir, 'files')), clock, config: { publicUrl: 'https://courier.test' } });
    const here: Side = {
      call: async (method, path, token, body) => {
        const res = await app.request(path, {
          method,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : {} };
      },
      advance: (ms) => clock.advance(ms),
    };
    const launched = await launchServer(
      dir,
      undefined,
      databaseUrl
        ? { DATABASE_URL: databaseUrl, TEST_DATABASE_URL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' }
        : { ADMIN_EMAIL: '', ADMIN_PASSWORD: '' },
    );
    servers.push(launched);
    const there: Side = {
      call: async (method, path, token, body) => {
        const res = await fetch(`http://127.0.0.1:${launched.port}${path}`, {
          method,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : {} };
      },
    };
    const adminUser = await person(db, here, 'admin');
    for (const kind of HOT_PATHS) {
      await hotPath(db, here, adminUser.token, kind);
      await hotPath(db, there, adminUser.token, kind);
    }
    // Ended in this process, refused by the other; then the other way round.
    await everyRevocation(db, here, there, adminUser.token);
    await everyRevocation(db, there, here, adminUser.token);
    launched.child.kill('SIGTERM');
    await launched.exit;
    await db.$engine.close();
  }, 180_000);
});
