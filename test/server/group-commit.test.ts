import Database from 'better-sqlite3';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sqliteOf } from '../../server/db/client';
import { device, idempotencyKey, packageEvent, pkg } from '../../server/db/schema/index';
import { ADMIN, callApi, spawnServer } from '../helpers/server';
import { makeApp, type TestApp } from '../helpers/app';

/**
 * Group commit (server/db/writeBatch.ts): writes of one event-loop turn share one COMMIT, and no
 * answer leaves before the batch holding what it reports has committed.
 */

const key = (name: string) => ({ 'idempotency-key': `${name}-${process.pid}`, 'x-device-id': 'gc-device' });

/** A driver with `hawbs` assigned to them and `foreign` assigned to another driver. */
async function driverWorld(t: TestApp, hawbs: string[], foreign: string[] = []) {
  const admin = await t.login('admin');
  const driver = await t.login('driver');
  const other = await t.login('driver');
  const ids = new Map<string, number>();
  for (const hawb of [...hawbs, ...foreign]) {
    const res = await t.json<{ id: number }>('POST', '/api/package/', admin.token, { hawb, customer_name: `Receiver ${hawb}` });
    expect(res.status).toBe(201);
    ids.set(hawb, res.body.id);
  }
  const assign = async (to: number, list: string[]) => {
    if (!list.length) return;
    const res = await t.json('POST', '/api/assign-package/assign-driver/', admin.token, {
      driver: to,
      packages: list.map((h) => ids.get(h)),
    });
    expect(res.status).toBe(200);
  };
  await assign(driver.id, hawbs);
  await assign(other.id, foreign);
  return { admin, driver, ids };
}

const statusOf = async (t: TestApp, hawb: string) =>
  (await t.db.select({ status: pkg.status }).from(pkg).where(eq(pkg.hawb, hawb)).get())?.status;
const eventsOf = (t: TestApp, id: number, action: string) =>
  t.db
    .select()
    .from(packageEvent)
    .where(and(eq(packageEvent.package_id, id), eq(packageEvent.action, action)))
    .all();
const answerOf = (t: TestApp, name: string) =>
  t.db
    .select()
    .from(idempotencyKey)
    .where(eq(idempotencyKey.key, `${name}-${process.pid}`))
    .get();

/** Counts COMMITs through the batcher's test seam; `failNext` makes the next one fail as a full disk would. */
function commitProbe() {
  const probe = {
    commits: 0,
    failNext: false,
    /** Runs while the batch is still open, just before its COMMIT. */
    duringCommit: undefined as (() => void) | undefined,
    beforeCommit: () => {
      probe.commits += 1;
      probe.duringCommit?.();
      probe.duringCommit = undefined;
      if (probe.failNext) {
        probe.failNext = false;
        throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
      }
    },
  };
  return probe;
}

// SQLite's group commit (one COMMIT for the units of a turn, its test seam): PostgreSQL commits each unit on its own.
const sqliteOnly = it.skipIf(!!process.env.TEST_DATABASE_URL);

describe('group commit', () => {
  it('a real server on a file database: every acknowledged write of a burst survives SIGKILL right after the last answer', async () => {
    const srv = await spawnServer();
    try {
      const { token } = await callApi<{ token: string }>(srv.baseUrl, 'POST', 'auth/web-login/', null, ADMIN);
      const n = 300;
      const answers = await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const res = await fetch(new URL('package/', srv.baseUrl), {
            method: 'POST',
            body: JSON.stringify({ hawb: `GK${String(i).padStart(4, '0')}`, customer_name: 'Burst' }),
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'idempotency-key': `gk-${i}-${process.pid}`,
              'x-device-id': 'gk-device',
              'x-device-seq': String(i + 1),
            },
          });
          await res.arrayBuffer();
          return res.status;
        }),
      );
      await srv.kill();
      expect(answers.filter((s) => s !== 201)).toEqual([]);

      // Read-write, so SQLite recovers the WAL the killed process left, as the next start would.
      const db = new Database(srv.databasePath);
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.prepare("select count(*) as n from package where hawb like 'GK%'").get()).toEqual({ n });
        expect(db.prepare("select count(*) as n from idempotency_key where device_id = 'gk-device'").get()).toEqual({ n });
        expect(db.prepare("select last_seq from device where device_id = 'gk-device'").get()).toEqual({ last_seq: n });
      } finally {
        db.close();
      }
    } finally {
      await srv.kill();
    }
  }, 240_000);

  sqliteOnly(
    'writes arriving together share one COMMIT; a business rejection among them undoes only itself and stays recorded',
    async () => {
      const probe = commitProbe();
      const t = await makeApp({ writeBatch: probe });
      const mine = ['GB1', 'GB2', 'GB3', 'GB4', 'GB5'];
      const { driver, ids } = await driverWorld(t, mine, ['GBX']);
      const scan = (barcode: string, name: string) =>
        t.json<{ code?: string }>('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode }, key(name));

      probe.commits = 0;
      const answers = await Promise.all([...mine.slice(0, 2), 'GBX', ...mine.slice(2)].map((h) => scan(h, `gb-${h}`)));
      expect(probe.commits).toBe(1);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 409, 200, 200, 200]);
      expect(answers[2]!.body.code).toBe('conflict');

      for (const h of mine) {
        expect(await statusOf(t, h)).toBe('out_for_delivery');
        expect(await eventsOf(t, ids.get(h)!, 'inbound_scan')).toHaveLength(1);
      }
      // The refused one: no effect, but its refusal and its answer are kept.
      expect(await statusOf(t, 'GBX')).toBe('assigned');
      expect(await eventsOf(t, ids.get('GBX')!, 'inbound_scan')).toHaveLength(0);
      expect(await eventsOf(t, ids.get('GBX')!, 'scan_rejected')).toHaveLength(1);
      expect((await answerOf(t, 'gb-GBX'))?.status).toBe(409);

      const again = await scan('GBX', 'gb-GBX');
      expect(again.status).toBe(409);
      expect(again.res.headers.get('idempotent-replayed')).toBe('true');
      expect(await eventsOf(t, ids.get('GBX')!, 'scan_rejected')).toHaveLength(1);
    },
  );

  sqliteOnly('idempotent twins racing in one batch are applied once and all get its answer', async () => {
    const probe = commitProbe();
    const t = await makeApp({ writeBatch: probe });
    const { driver, ids } = await driverWorld(t, ['GT1']);
    const headers = { ...key('gt-twin'), 'x-device-seq': '7' };

    probe.commits = 0;
    const twins = await Promise.all(
      Array.from({ length: 5 }, () => t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: 'GT1' }, headers)),
    );
    expect(probe.commits).toBe(1);
    expect(twins.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(twins.filter((a) => a.res.headers.get('idempotent-replayed') === 'true')).toHaveLength(4);
    for (const twin of twins) expect(twin.body).toEqual(twins[0]!.body);
    expect(await eventsOf(t, ids.get('GT1')!, 'inbound_scan')).toHaveLength(1);
    // The twins' own attempts (a repeat scan each) were undone with their savepoints.
    expect(await eventsOf(t, ids.get('GT1')!, 'scan_repeat')).toHaveLength(0);
    expect(await t.db.select().from(idempotencyKey).where(like(idempotencyKey.key, 'gt-twin-%')).all()).toHaveLength(1);

    // Twins creating a parcel: one parcel.
    const admin = await t.login('admin');
    const creates = await Promise.all(
      Array.from({ length: 4 }, () => t.json('POST', '/api/package/', admin.token, { hawb: 'GT-NEW' }, key('gt-create'))),
    );
    expect(creates.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect(await t.db.select().from(pkg).where(eq(pkg.hawb, 'GT-NEW')).all()).toHaveLength(1);
  });

  sqliteOnly('a failed COMMIT answers every request of the batch 503, a read that saw the batch too, and keeps nothing of it', async () => {
    const probe = commitProbe();
    const t = await makeApp({ writeBatch: probe });
    const { driver, admin, ids } = await driverWorld(t, ['GF1']);
    const before = (await t.json<{ count: number }>('GET', '/api/package/', admin.token)).body.count;
    const creates = ['GF-A', 'GF-B', 'GF-C'];
    const send = () =>
      Promise.all([
        ...creates.map((hawb) => t.json<{ code: string }>('POST', '/api/package/', admin.token, { hawb }, key(`gf-${hawb}`))),
        t.json<{ code: string }>(
          'POST',
          '/api/scan-package-api/inbound-scan/',
          driver.token,
          { barcode: 'GF1' },
          { ...key('gf-scan'), 'x-device-seq': '3' },
        ),
      ]);

    probe.commits = 0;
    probe.failNext = true;
    // A list read while the batch is open sees its rows; it must not answer them, since they vanish.
    let read: Promise<{ status: number; body: { code?: string; count?: number } }> | undefined;
    probe.duringCommit = () => {
      read = t.json('GET', '/api/package/', admin.token);
    };
    const failed = await send();
    expect(probe.commits).toBe(1);
    for (const f of failed) {
      expect(f.status).toBe(503);
      expect(f.body.code).toBe('service_unavailable');
      expect(f.res.headers.get('retry-after')).toBe('30');
    }
    expect(await read).toBeDefined();
    const seen = await read!;
    expect(seen.status).toBe(503);
    expect(seen.body.code).toBe('service_unavailable');

    for (const hawb of creates) expect(await statusOf(t, hawb)).toBeUndefined();
    expect(await statusOf(t, 'GF1')).toBe('assigned');
    expect(await eventsOf(t, ids.get('GF1')!, 'inbound_scan')).toHaveLength(0);
    expect(await t.db.select().from(idempotencyKey).where(like(idempotencyKey.key, 'gf-%')).all()).toHaveLength(0);
    expect(await t.db.select().from(device).where(eq(device.device_id, 'gc-device')).all()).toHaveLength(0);
    expect(sqliteOf(t.db)!.inTransaction).toBe(false);

    // The devices retry the same keys: nothing was stored as their answer, so they apply afresh.
    const retried = await send();
    expect(retried.map((r) => r.status)).toEqual([201, 201, 201, 200]);
    for (const r of retried) expect(r.res.headers.get('idempotent-replayed')).toBeNull();
    expect((await t.json<{ count: number }>('GET', '/api/package/', admin.token)).body.count).toBe(before + creates.length);
    expect(await statusOf(t, 'GF1')).toBe('out_for_delivery');
  });

  sqliteOnly(
    'a statement that makes SQLite undo the whole transaction (database full) fails the units before it too: no 201 is lost',
    async () => {
      const t = await makeApp();
      const admin = await t.login('admin');
      const pages = sqliteOf(t.db)!.pragma('page_count', { simple: true }) as number;
      // Room for a few parcels: the first fits, a later one of the same batch does not. A plain insert
      // (the stored answer) that fails for lack of a page makes SQLite roll back the whole transaction.
      sqliteOf(t.db)!.pragma(`max_page_count = ${pages + 3}`);
      const hawbs = Array.from({ length: 30 }, (_, i) => `GP-${i}`);
      const answers = await Promise.all(
        hawbs.map((hawb) =>
          t.json('POST', '/api/package/', admin.token, { hawb, description_of_goods: 'z'.repeat(900) }, key(`gp-${hawb}`)),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
      expect(t.app.deps.writes.failures).toBeGreaterThan(0);
      // The first one fitted, yet its batch was lost with the one that did not: it must not say 201.
      expect(statuses[0]).toBe(503);
      // Every 201 is there, every 503 left nothing.
      for (const [i, hawb] of hawbs.entries())
        expect({ hawb, kept: (await statusOf(t, hawb)) !== undefined }).toEqual({ hawb, kept: statuses[i] === 201 });
      sqliteOf(t.db)!.pragma(`max_page_count = ${pages * 100}`);
      expect((await t.json('POST', '/api/package/', admin.token, { hawb: 'GP-after' })).status).toBe(201);
      expect(sqliteOf(t.db)!.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  );
});
