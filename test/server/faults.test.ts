import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN, callApi, launchServer, seedOverHttp, type LaunchedServer } from '../helpers/server';
import { makeApp } from '../helpers/app';
import { sqliteOf } from '../../server/db/client';

// The real server (launchServer: server/main.ts in its own process) on files this test owns, so it
// can be killed, terminated, starved of disk and started again on the same database.

async function post(baseUrl: string, path: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

async function login(baseUrl: string, email: string, password: string, web = false): Promise<string> {
  return (await callApi<{ token: string }>(baseUrl, 'POST', web ? 'auth/web-login/' : 'auth/login/', null, { email, password })).token;
}

function integrity(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

describe('SIGKILL during writes', () => {
  it('loses no acknowledged write and leaves no half-applied action; replays complete the rest exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courier-kill-'));
    let srv = await launchServer(dir);
    const seeded = await seedOverHttp(srv.baseUrl, 60, 'KL');
    const token = await login(srv.baseUrl, seeded.driver.email, seeded.driver.password);
    const device = { 'x-device-id': 'kill-device' };
    const acked = new Set<number>();
    const send = (i: number) =>
      post(
        srv.baseUrl,
        'scan-package-api/inbound-scan/',
        token,
        { barcode: seeded.hawbs[i] },
        { ...device, 'idempotency-key': `kill-key-${i}-${process.pid}`, 'x-device-seq': String(i + 1) },
      );
    // Many writes in flight; the kill lands once some are answered and others are not.
    const inflight = seeded.hawbs.map((_, i) =>
      send(i).then(
        (r) => {
          if (r.status === 200) acked.add(i);
        },
        () => undefined,
      ),
    );
    while (acked.size < 10) await new Promise((r) => setTimeout(r, 5));
    srv.child.kill('SIGKILL');
    await srv.exit;
    await Promise.allSettled(inflight);
    expect(acked.size).toBeGreaterThanOrEqual(10);

    srv = await launchServer(dir, srv.port);
    try {
      const db = new Database(join(dir, 'courier.db'), { readonly: true });
      const rows = db
        .prepare(
          `select p.id, p.hawb, p.status, p.is_scanned,
          (select count(*) from package_event e where e.package_id = p.id and e.action = 'inbound_scan') as scans,
          (select count(*) from change_log c where c.entity = 'package' and c.entity_id = p.id) as feed
        from package p where p.hawb like 'KL%' order by p.id`,
        )
        .all() as { hawb: string; status: string; is_scanned: number; scans: number; feed: number }[];
      const keys = new Set(
        (db.prepare("select key from idempotency_key where device_id = 'kill-device'").all() as { key: string }[]).map((r) => r.key),
      );
      const lastSeq =
        (db.prepare("select last_seq from device where device_id = 'kill-device'").get() as { last_seq: number } | undefined)?.last_seq ??
        0;
      db.close();
      expect(rows).toHaveLength(60);
      for (const [i, row] of rows.entries()) {
        const applied = row.status === 'out_for_delivery';
        // All or nothing per action: state, flag, event, answer.
        expect({ i, scanned: row.is_scanned === 1, scans: row.scans, key: keys.has(`kill-key-${i}-${process.pid}`) }).toEqual({
          i,
          scanned: applied,
          scans: applied ? 1 : 0,
          key: applied,
        });
        if (acked.has(i)) expect(applied, `acknowledged scan ${i} lost`).toBe(true);
        else expect(['assigned', 'out_for_delivery']).toContain(row.status);
      }
      expect(lastSeq).toBeGreaterThanOrEqual(Math.max(...[...acked].map((i) => i + 1)));
      expect(integrity(join(dir, 'courier.db'))).toBe('ok');

      // The device's outbox re-sends everything it holds: acknowledged ones replay, the rest apply once.
      for (let i = 0; i < 60; i++) {
        const r = await send(i);
        expect(r.status, `resend ${i}`).toBe(200);
        if (acked.has(i)) expect(r.headers.get('idempotent-replayed')).toBe('true');
      }
      const after = new Database(join(dir, 'courier.db'), { readonly: true });
      const counts = after
        .prepare(
          `select count(*) as n, sum(status = 'out_for_delivery') as loaded,
          sum((select count(*) from package_event e where e.package_id = p.id and e.action = 'inbound_scan')) as scans from package p where hawb like 'KL%'`,
        )
        .get();
      after.close();
      expect(counts).toEqual({ n: 60, loaded: 60, scans: 60 });
    } finally {
      srv.child.kill('SIGTERM');
      await srv.exit;
    }
  }, 300_000);
});

describe('graceful shutdown', () => {
  it('SIGTERM lets an in-flight request finish, refuses new connections, closes the database and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courier-term-'));
    const srv = await launchServer(dir);
    const token = await login(srv.baseUrl, ADMIN.email, ADMIN.password, true);
    const body = JSON.stringify({ hawb: 'TERM-1', customer_name: 'In flight' });
    const socket = connect(srv.port, '127.0.0.1');
    let answer = '';
    socket.on('data', (b: Buffer) => {
      answer += b.toString();
    });
    const closed = new Promise<void>((ok) => socket.on('close', () => ok()));
    await new Promise<void>((ok) => socket.once('connect', () => ok()));
    // Headers and half the body: the request is in flight when the signal arrives.
    socket.write(
      `POST /api/package/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    socket.write(body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 300));
    srv.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await expect(fetch(new URL('package/', srv.baseUrl), { headers: { authorization: `Bearer ${token}` } })).rejects.toThrow();
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 201/);
    expect(answer).toContain('TERM-1');
    expect(await srv.exit).toBe(0);
    expect(srv.output()).toContain('SIGTERM: closing');
    expect(integrity(join(dir, 'courier.db'))).toBe('ok');
    const db = new Database(join(dir, 'courier.db'), { readonly: true });
    expect(db.prepare("select count(*) as n from package where hawb = 'TERM-1'").get()).toEqual({ n: 1 });
    db.close();
  }, 180_000);
});

// SQLite fault injection (query_only, max_page_count pragmas): no such switches on PostgreSQL.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('storage failures answer 503 and recover', () => {
  it('a read-only database: writes answer 503 service_unavailable with Retry-After, reads still work, nothing half-written, writes resume', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    expect((await t.json('POST', '/api/package/', admin.token, { hawb: 'RO-1' })).status).toBe(201);
    sqliteOf(t.db)!.pragma('query_only = ON');
    const refused = await t.json<{ code: string; message: string }>(
      'POST',
      '/api/package/',
      admin.token,
      { hawb: 'RO-2' },
      { 'idempotency-key': 'read-only-key-1' },
    );
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('service_unavailable');
    expect(refused.body.message).toMatch(/read-only/);
    expect(refused.res.headers.get('retry-after')).toBe('30');
    expect((await t.json<{ count: number }>('GET', '/api/package/', admin.token)).body.count).toBe(1);
    sqliteOf(t.db)!.pragma('query_only = OFF');
    // The same key again: a 503 was not stored as its answer, so the retry is processed afresh.
    const retried = await t.json('POST', '/api/package/', admin.token, { hawb: 'RO-2' }, { 'idempotency-key': 'read-only-key-1' });
    expect(retried.status).toBe(201);
    expect(retried.res.headers.get('idempotent-replayed')).toBeNull();
    expect(sqliteOf(t.db)!.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('a full database (page limit reached): 503, not 500, and writes resume once there is room', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const pages = sqliteOf(t.db)!.pragma('page_count', { simple: true }) as number;
    sqliteOf(t.db)!.pragma(`max_page_count = ${pages}`);
    const statuses: number[] = [];
    for (let i = 0; i < 200 && !statuses.includes(503); i++) {
      statuses.push(
        (await t.json('POST', '/api/package/', admin.token, { hawb: `FULL-${i}`, description_of_goods: 'x'.repeat(900) })).status,
      );
    }
    expect(statuses).toContain(503);
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    sqliteOf(t.db)!.pragma(`max_page_count = ${pages * 100}`);
    expect((await t.json('POST', '/api/package/', admin.token, { hawb: 'FULL-after' })).status).toBe(201);
    expect(sqliteOf(t.db)!.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  // Written until the disk says no: the background checkpointer may grow the database file at the
  // same moment, so a size computed from statfs beforehand can already be too big.
  const fillDisk = (path: string) => {
    const fd = openSync(path, 'w');
    const chunk = Buffer.alloc(64 * 1024);
    try {
      for (;;) writeSync(fd, chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      closeSync(fd);
    }
  };
  const canMount = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;
  it.skipIf(!canMount)(
    'a real full disk (tiny tmpfs): the running server answers 503, stays up, does not corrupt the database, and recovers',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'courier-full-'));
      mkdirSync(join(dir, 'mnt'));
      const mnt = join(dir, 'mnt');
      if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=12m', 'tmpfs', mnt]).status !== 0) return;
      let srv: LaunchedServer | undefined;
      try {
        srv = await launchServer(mnt);
        const token = await login(srv.baseUrl, ADMIN.email, ADMIN.password, true);
        expect((await post(srv.baseUrl, 'package/', token, { hawb: 'DISK-0' })).status).toBe(201);
        fillDisk(join(mnt, 'filler'));
        const statuses: number[] = [];
        for (let i = 1; i <= 60 && !statuses.includes(503); i++) {
          statuses.push((await post(srv.baseUrl, 'package/', token, { hawb: `DISK-${i}`, description_of_goods: 'y'.repeat(900) })).status);
        }
        expect(statuses).toContain(503);
        expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
        const list = await fetch(new URL('package/', srv.baseUrl), { headers: { authorization: `Bearer ${token}` } });
        expect(list.status).toBe(200);
        rmSync(join(mnt, 'filler'));
        expect((await post(srv.baseUrl, 'package/', token, { hawb: 'DISK-after' })).status).toBe(201);
        srv.child.kill('SIGTERM');
        expect(await srv.exit).toBe(0);
        srv = undefined;
        expect(integrity(join(mnt, 'courier.db'))).toBe('ok');
      } finally {
        if (srv) {
          srv.child.kill('SIGKILL');
          await srv.exit;
        }
        spawnSync('umount', [mnt]);
      }
    },
    240_000,
  );
});
