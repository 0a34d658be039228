/**
 * Issue 31: the driver's lists sorted by the nullable `sequence_no` with a bare ORDER BY, which puts
 * unsequenced parcels first on SQLite and last on PostgreSQL. The same lists now answer the same
 * order on both engines: route order with unsequenced parcels last (as the phone sorts them,
 * client/sync/view.ts). In the PostgreSQL pass this test builds a SQLite app beside the PostgreSQL
 * one and compares their answers; in the SQLite pass it checks the order itself.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openMemoryDatabase, type Db } from '../../server/db/client';
import { pkg } from '../../server/db/schema/index';
import { manifestParcels } from '../../server/services/labels/select';
import { makeApp, type TestApp } from '../helpers/app';

/** Sequence numbers given to the parcels N-1..N-8 in creation order; null: not sequenced. */
const SEQUENCE = [3, null, 1, null, 2, null, 5, 4];
const SCANNED = new Set(['N-3', 'N-4', 'N-5', 'N-8']);

async function sqliteDb(): Promise<Db> {
  const saved = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  try {
    return await openMemoryDatabase();
  } finally {
    if (saved !== undefined) process.env.TEST_DATABASE_URL = saved;
  }
}

interface Hawbs {
  hawb: string;
}

/** One world, and what each list answers (hawbs in order). */
async function listsOf(t: TestApp): Promise<Record<string, string[]>> {
  const admin = await t.login('admin');
  const driver = await t.login('driver');
  const company = await t.company();
  const ids: number[] = [];
  for (const [i, seq] of SEQUENCE.entries()) {
    const res = await t.json<{ id: number }>('POST', '/api/package/', admin.token, { hawb: `N-${i + 1}`, company });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
    await t.db.update(pkg).set({ sequence_no: seq }).where(eq(pkg.id, res.body.id)).run();
  }
  expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: ids })).status).toBe(200);
  for (const hawb of SCANNED)
    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: hawb })).status).toBe(200);
  const hawbs = (list: Hawbs[]) => list.map((p) => p.hawb);
  const get = async <T>(path: string, token: string) => {
    const res = await t.json<T>('GET', path, token);
    expect(res.status, path).toBe(200);
    return res.body;
  };
  return {
    remaining: hawbs(
      (await get<{ pending_packages: Hawbs[] }>(`/api/scan-package-api/${driver.id}/remaining-packages-list/`, driver.token))
        .pending_packages,
    ),
    scanned: hawbs(
      (await get<{ scanned_packages: Hawbs[] }>(`/api/scan-package-api/${driver.id}/scanned-packages-list/`, driver.token))
        .scanned_packages,
    ),
    today: hawbs((await get<{ packages: Hawbs[] }>('/api/driver-package/current-date/?utc_offset=600', driver.token)).packages),
    manifest: hawbs((await manifestParcels(t.db, { driver: driver.id })).parcels),
    listBySequence: hawbs((await get<{ results: Hawbs[] }>('/api/package/?ordering=sequence_no&page_size=50', admin.token)).results),
    listBySequenceDesc: hawbs((await get<{ results: Hawbs[] }>('/api/package/?ordering=-sequence_no&page_size=50', admin.token)).results),
  };
}

/** Route order as the phone sorts (client/sync/view.ts viewOf): by sequence, unsequenced after, then by id. */
function routeOrder(hawbs: string[]): string[] {
  const seq = (h: string) => SEQUENCE[Number(h.slice(2)) - 1] ?? Number.MAX_SAFE_INTEGER;
  return [...hawbs].sort((a, b) => seq(a) - seq(b) || Number(a.slice(2)) - Number(b.slice(2)));
}

describe('the same order on both engines (issue 31)', () => {
  it("the driver's lists put unsequenced parcels last, in id order, as the phone does", async () => {
    const lists = await listsOf(await makeApp());
    const all = SEQUENCE.map((_, i) => `N-${i + 1}`);
    expect(lists.remaining).toEqual(routeOrder(all.filter((h) => !SCANNED.has(h))));
    expect(lists.remaining).toEqual(['N-1', 'N-7', 'N-2', 'N-6']);
    expect(lists.scanned).toEqual(routeOrder([...SCANNED]));
    expect(lists.today).toEqual(routeOrder(all));
    expect(lists.manifest).toEqual(routeOrder(all));
  });

  it.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL answers every list in the order SQLite does', async () => {
    const onPostgres = await listsOf(await makeApp());
    const onSqlite = await listsOf(await makeApp({ db: await sqliteDb() }));
    expect(onPostgres).toEqual(onSqlite);
  });
});
