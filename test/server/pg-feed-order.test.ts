import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresDb, type Db } from '../../server/db/client';
import { freshPostgresUrl } from '../../server/db/engine/open';
import { changeLog, pkg } from '../../server/db/schema/index';
import { logPackageChange } from '../../server/services/sync/changes';
import { makeApp, type TestApp } from '../helpers/app';

/**
 * The change feed's order without a lock through COMMIT (issue 33, server/db/engine/feedPlacement.ts):
 * two apps, each with its own connection pool (two machines), over one PostgreSQL database. Writers
 * on both create parcels at once while a company's devices on both poll the feed with their cursor;
 * afterwards, every feed row at or below a cursor a device was given must have been in one of the
 * pages that moved it there. With a plain sequence (a row takes its seq at insert) rows commit out of
 * seq order and devices pass them for good: this test fails that way. SQLite has one writer.
 */
const admin = process.env.TEST_DATABASE_URL;

const engines: Db[] = [];
afterAll(async () => {
  for (const db of engines) await db.$engine.close();
});

async function twoMachines(): Promise<[TestApp, TestApp]> {
  const url = await freshPostgresUrl(admin as string);
  const pools: Db[] = [postgresDb(url, { poolSize: 8, idleMs: 1000 }), postgresDb(url, { poolSize: 8, idleMs: 1000 })];
  engines.push(...pools);
  const [a, b] = await Promise.all(pools.map((db) => makeApp({ db })));
  return [a as TestApp, b as TestApp];
}

interface Feed {
  cursor: number;
  has_more: boolean;
  upserts: { packages: { id: number }[] };
  removes: { packages: number[] };
}
/** One answer of the feed as a device saw it: the cursor it sent, the cursor it got, the parcels in between. */
interface Pull {
  from: number;
  to: number;
  ids: Set<number>;
}

const CREATORS_PER_APP = 3;
const PARCELS_PER_CREATOR = 8;

describe.skipIf(!admin)('the change feed across two machines on one PostgreSQL database', () => {
  it('sends a row that commits after a later one a device already read', async () => {
    const [a, b] = await twoMachines();
    const shipper = await a.login('company');
    const create = async (t: TestApp, hawb: string) =>
      (await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb })).body.id;
    const pull = async (t: TestApp, cursor: number) =>
      (await t.json<Feed>('GET', `/api/sync/changes/?cursor=${cursor}&limit=1000`, shipper.token)).body;
    const first = await create(a, 'ORDER-1');
    const start = (await pull(a, 0)).cursor;
    expect(start).toBeGreaterThan(0);

    // Machine a's unit writes its feed row for `first` and stays open...
    let finish = () => {};
    const held = new Promise<void>((r) => (finish = r));
    let written = () => {};
    const wrote = new Promise<void>((r) => (written = r));
    const company = (await a.db.select({ company: pkg.company_id }).from(pkg).where(eq(pkg.id, first)).get())!.company;
    const open = a.db.$engine.units().run(async () => {
      await logPackageChange(a.db, first, { driverId: null, companyId: company }, a.clock.now());
      written();
      await held;
    });
    await wrote;
    // ...while machine b's parcel is written after it and committed first, and the device reads that.
    const second = await create(b, 'ORDER-2');
    const mid = await pull(b, start);
    expect(mid.upserts.packages.map((p) => p.id)).toEqual([second]);
    finish();
    await open;
    // A plain sequence gave `first` the lower seq, which the device has passed: it would never hear of it.
    const after = await pull(a, mid.cursor);
    expect(after.upserts.packages.map((p) => p.id)).toEqual([first]);
    expect(after.cursor).toBeGreaterThan(mid.cursor);
  });

  it('never gives a device a cursor above a row it has not been sent', { timeout: 120_000 }, async () => {
    const [a, b] = await twoMachines();
    const shipper = await a.login('company');
    // The devices start from a cursor above 0 (an incremental read), after one parcel.
    expect((await a.json('POST', '/api/package/', shipper.token, { hawb: 'NSKIP-SEED' })).status).toBe(201);

    let writing = true;
    const creator = async (t: TestApp, name: string) => {
      for (let k = 0; k < PARCELS_PER_CREATOR; k++) {
        expect((await t.json('POST', '/api/package/', shipper.token, { hawb: `NSKIP-${name}-${k}` })).status).toBe(201);
      }
    };
    const pull = async (t: TestApp, from: number): Promise<Pull & { more: boolean }> => {
      const res = await t.json<Feed>('GET', `/api/sync/changes/?cursor=${from}&limit=1000`, shipper.token);
      expect(res.status).toBe(200);
      const ids = new Set([...res.body.upserts.packages.map((p) => p.id), ...res.body.removes.packages]);
      return { from, to: res.body.cursor, ids, more: res.body.has_more };
    };
    /** A device polling one machine, then both alternately, until the writers are done; then until it is level. */
    const device = async (machines: TestApp[]): Promise<Pull[]> => {
      const pulls: Pull[] = [];
      let cursor = 0;
      let n = 0;
      let more = true;
      while (writing || more) {
        const page = await pull(machines[n++ % machines.length]!, cursor);
        pulls.push(page);
        cursor = page.to;
        more = page.more;
      }
      pulls.push(await pull(a, cursor));
      return pulls;
    };

    const devices = Promise.all([device([a]), device([b]), device([a, b]), device([b, a])]);
    const writers: Promise<void>[] = [];
    for (let w = 0; w < CREATORS_PER_APP; w++) writers.push(creator(a, `ca${w}`), creator(b, `cb${w}`));
    await Promise.all(writers);
    writing = false;
    const seen = await devices;

    const created = (await a.db.select({ id: pkg.id }).from(pkg).all()).map((p) => p.id);
    expect(created.length).toBe(1 + 2 * (CREATORS_PER_APP * PARCELS_PER_CREATOR));
    const rows = await a.db
      .select({ seq: changeLog.seq, id: changeLog.entity_id })
      .from(changeLog)
      .where(eq(changeLog.entity, 'package'))
      .all();
    expect(rows.length).toBe(created.length);
    // Every row has its final, positive seq once the feed was read after the last write.
    expect(rows.every((r) => r.seq > 0)).toBe(true);
    const missed: string[] = [];
    for (const [d, pulls] of seen.entries()) {
      for (const p of pulls) {
        // A snapshot (cursor 0) answers from the parcels themselves, an incremental page from the feed rows above `from`.
        for (const r of rows)
          if (r.seq > p.from && r.seq <= p.to && !p.ids.has(r.id))
            missed.push(`device ${d}: seq ${r.seq} (parcel ${r.id}) passed by ${p.from} -> ${p.to}`);
      }
      const got = new Set(pulls.flatMap((p) => [...p.ids]));
      expect(created.filter((id) => !got.has(id))).toEqual([]);
    }
    expect(missed).toEqual([]);
    // The devices did poll while the writers wrote (the test is about that overlap).
    expect(seen.every((pulls) => pulls.length > 3)).toBe(true);
  });
});
