import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_MIGRATIONS_DIR, postgresDb, type Db } from '../../server/db/client';
import { freshPostgresDatabase } from '../../server/db/engine/postgresDatabases';
import { packageEvent, user } from '../../server/db/schema/index';
import { hashPasswordSync } from '../../server/services/auth/passwords';
import { launchServer } from '../helpers/server';

/**
 * Exactly once across processes (issue 20): real `server/main.ts` processes on one PostgreSQL
 * database, a driver's device alternating between them, one SIGKILLed mid-stream, everything resent.
 */
const admin = process.env.TEST_DATABASE_URL;
const PASSWORD = 'correct-horse-42';

interface Proc {
  url: string;
  child: ChildProcess;
}

/** A real server/main.ts on the shared database; no admin bootstrap (two separate processes would both try). */
async function startServer(databaseUrl: string): Promise<Proc> {
  const dir = mkdtempSync(join(tmpdir(), 'courier-mp-'));
  const launched = await launchServer(dir, undefined, {
    DATABASE_URL: databaseUrl,
    TEST_DATABASE_URL: '',
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
  });
  return { url: `http://127.0.0.1:${launched.port}`, child: launched.child };
}

async function call(p: Proc, method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${p.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return {
    status: res.status,
    body: (text ? JSON.parse(text) : null) as Record<string, unknown>,
    replayed: res.headers.get('idempotent-replayed') === 'true',
  };
}

describe.skipIf(!admin)('two server processes on one PostgreSQL database', () => {
  let db: Db;
  let url: string;
  let a: Proc;
  let b: Proc;
  const procs: Proc[] = [];

  beforeAll(async () => {
    url = await freshPostgresDatabase(admin as string, PG_MIGRATIONS_DIR);
    db = postgresDb(url, { poolSize: 2 });
    const now = Date.now();
    const hash = hashPasswordSync(PASSWORD, 1024);
    await db
      .insert(user)
      .values([
        { name: 'Admin', email: 'admin@mp.test', role: 'admin', password_hash: hash, created_at: now, updated_at: now },
        { name: 'Driver', email: 'driver@mp.test', role: 'driver', password_hash: hash, created_at: now, updated_at: now },
      ])
      .run();
    [a, b] = await Promise.all([startServer(url), startServer(url)]);
    procs.push(a, b);
  }, 90_000);

  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    await db?.$engine.close();
  });

  it('applies every queued action once though one process is killed mid-stream and everything is resent', async () => {
    const adminToken = (await call(a, 'POST', '/api/auth/web-login/', null, { email: 'admin@mp.test', password: PASSWORD })).body
      .token as string;
    const login = await call(b, 'POST', '/api/auth/login/', null, { email: 'driver@mp.test', password: PASSWORD });
    const driverId = (await db.select({ id: user.id }).from(user).where(eq(user.email, 'driver@mp.test')).get())?.id as number;
    const driverToken = login.body.token as string;
    const ids: number[] = [];
    for (let i = 0; i < 24; i++) {
      const made = await call(i % 2 ? a : b, 'POST', '/api/package/', adminToken, { hawb: `MP${i}` });
      expect(made.status).toBe(201);
      ids.push(made.body.id as number);
    }
    expect((await call(a, 'POST', '/api/assign-package/assign-driver/', adminToken, { driver: driverId, packages: ids })).status).toBe(200);

    // The device's queue: one inbound scan per parcel, each with its key and sequence number.
    const action = (i: number) => ({
      body: { barcode: `MP${i}`, occurred_at: new Date(Date.UTC(2026, 10, 25, 7, 0, i)).toISOString() },
      headers: { 'idempotency-key': `mp-scan-${i}`, 'x-device-id': 'phone-mp', 'x-device-seq': String(i + 1) },
    });
    const scan = (p: Proc, i: number) =>
      call(p, 'POST', '/api/scan-package-api/inbound-scan/', driverToken, action(i).body, action(i).headers);

    // Alternating between the two processes...
    for (let i = 0; i < 10; i++) expect((await scan(i % 2 ? a : b, i)).status).toBe(200);
    // ...then a burst at B, killed while it answers: some of these may have committed, some not.
    const burst = Array.from({ length: 8 }, (_, k) => scan(b, 10 + k).catch(() => null));
    await new Promise((ok) => setTimeout(ok, 15));
    b.child.kill('SIGKILL');
    await Promise.all(burst);

    // The device never saw those answers: it resends its whole queue to the process still up.
    let replays = 0;
    for (let i = 0; i < ids.length; i++) {
      const res = await scan(a, i);
      expect(res.status).toBe(200);
      if (res.replayed) replays += 1;
    }
    expect(replays).toBeGreaterThanOrEqual(10);
    for (const id of ids) {
      const scans = await db
        .select()
        .from(packageEvent)
        .where(and(eq(packageEvent.package_id, id), eq(packageEvent.action, 'inbound_scan')))
        .all();
      expect(scans).toHaveLength(1);
    }
  }, 120_000);

  it('answers the same action arriving at both processes at once both times, and applies it once', async () => {
    const c = await startServer(url);
    procs.push(c);
    const adminToken = (await call(a, 'POST', '/api/auth/web-login/', null, { email: 'admin@mp.test', password: PASSWORD })).body
      .token as string;
    const driverToken = (await call(c, 'POST', '/api/auth/login/', null, { email: 'driver@mp.test', password: PASSWORD })).body
      .token as string;
    const driverId = (await db.select({ id: user.id }).from(user).where(eq(user.email, 'driver@mp.test')).get())?.id as number;
    const made = await call(a, 'POST', '/api/package/', adminToken, { hawb: 'TWIN1' });
    await call(c, 'POST', '/api/assign-package/assign-driver/', adminToken, { driver: driverId, packages: [made.body.id] });
    const headers = { 'idempotency-key': 'twin-scan', 'x-device-id': 'phone-twin', 'x-device-seq': '1' };
    const body = { barcode: 'TWIN1', occurred_at: '2026-11-25T08:00:00.000Z' };
    for (let round = 0; round < 3; round++) {
      const [x, y] = await Promise.all([
        call(a, 'POST', '/api/scan-package-api/inbound-scan/', driverToken, body, headers),
        call(c, 'POST', '/api/scan-package-api/inbound-scan/', driverToken, body, headers),
      ]);
      expect([x.status, y.status]).toEqual([200, 200]);
      expect(x.body).toEqual(y.body);
    }
    const scans = await db
      .select()
      .from(packageEvent)
      .where(and(eq(packageEvent.package_id, made.body.id as number), eq(packageEvent.action, 'inbound_scan')))
      .all();
    expect(scans).toHaveLength(1);
  }, 90_000);
});
