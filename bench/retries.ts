/**
 * What SERIALIZABLE costs PostgreSQL on a brand-new database: the first-morning scenario of
 * test/server/concurrent-fresh.test.ts (drivers scan at once, then deliver at once; 2 units a driver)
 * repeated on fresh databases, counting the units the engine ran again (`retried`, by SQLSTATE).
 * The count varies from run to run (which units overlap is up to the scheduler), so it is a figure
 * for notes, not a test. Beside it, retries per 1,000 units and the serial section: how long a
 * connection held a lock through COMMIT, from its grant to COMMIT's return (bench/serialSection.ts):
 * before issue 33 every feed-writing unit held the feed's lock (`feedOrder`); now only the feed's
 * placement does (server/db/engine/feedPlacement.ts), once per batch of committed rows.
 * Devices poll the feed meanwhile (RETRY_POLLERS loops, each pulling again as soon as answered), which
 * is what places the rows. RETRY_MACHINES=2 runs two apps, each with its own pool, over one database
 * and alternates every request between them (two machines' connections; one node process).
 *
 *   bash scripts/with-postgres.sh npx tsx bench/retries.ts   (RETRY_ROUNDS=5, RETRY_DRIVERS=30, RETRY_POLLERS=2, RETRY_MACHINES=1)
 */
import { pathToFileURL } from 'node:url';
import { postgresDb } from '../server/db/client';
import { freshPostgresUrl } from '../server/db/engine/open';
import type { PostgresEngine } from '../server/db/engine/postgres';
import { makeApp, type TestApp } from '../test/helpers/app';
import { firstMorning } from '../test/helpers/firstMorning';
import { summary, timeSerialSection } from './serialSection';

/** One app, or two over one database with every request sent to them in turn. */
async function machines(count: number, admin: string): Promise<{ front: TestApp; engines: PostgresEngine[] }> {
  if (count < 2) {
    const t = await makeApp();
    return { front: t, engines: [t.db.$engine as PostgresEngine] };
  }
  const url = await freshPostgresUrl(admin);
  const apps = await Promise.all([0, 1].map(() => makeApp({ db: postgresDb(url, { poolSize: 10, idleMs: 1000 }) })));
  let turn = 0;
  const front: TestApp = { ...apps[0]!, json: (...args) => apps[turn++ % apps.length]!.json(...args) };
  return { front, engines: apps.map((a) => a.db.$engine as PostgresEngine) };
}

export async function runRetriesBench(
  rounds = Number(process.env.RETRY_ROUNDS ?? 5),
  drivers = Number(process.env.RETRY_DRIVERS ?? 30),
  pollers = Number(process.env.RETRY_POLLERS ?? 2),
  count = Number(process.env.RETRY_MACHINES ?? 1),
): Promise<void> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    console.log('retries: PostgreSQL only (run under scripts/with-postgres.sh)');
    return;
  }
  console.log(`${drivers} drivers, ${pollers} polling devices, ${count} machine(s), ${rounds} rounds`);
  const counts: number[] = [];
  const held: number[] = [];
  const waited: number[] = [];
  const placed: number[] = [];
  let written = 0;
  for (let r = 0; r < rounds; r++) {
    const { front: t, engines } = await machines(count, admin);
    const serials = engines.map(timeSerialSection);
    const office = await t.login('admin');
    let done = false;
    let pulls = 0;
    const poll = async () => {
      let cursor = 0;
      while (!done) {
        const res = await t.json<{ cursor: number }>('GET', `/api/sync/changes/?cursor=${cursor}`, office.token);
        cursor = res.body.cursor;
        pulls += 1;
      }
    };
    const polling = Array.from({ length: pollers }, poll);
    const began = performance.now();
    const morning = await firstMorning(t, drivers);
    const took = performance.now() - began;
    done = true;
    await Promise.all(polling);
    for (const s of serials) {
      held.push(...s.held);
      waited.push(...s.waited);
      placed.push(...s.placed);
    }
    written += (await engines[0]!.pool.query<{ n: number }>('select count(*)::int as n from change_log')).rows[0]!.n;
    const failed = [...morning.scans, ...morning.delivers].filter((s) => s !== 200).length;
    const retried = engines.reduce(
      (sum, e) => ({
        serialization: sum.serialization + e.retried.serialization,
        deadlock: sum.deadlock + e.retried.deadlock,
        unique: sum.unique + e.retried.unique,
      }),
      { serialization: 0, deadlock: 0, unique: 0 },
    );
    counts.push(retried.serialization);
    console.log(
      `round ${r + 1}: ${drivers * 2} units (scan + deliver), retried: ${retried.serialization} serialization (40001), ${retried.deadlock} deadlock, ${retried.unique} unique; non-200 answers ${failed}; ${pulls} pulls; morning ${(took / 1000).toFixed(1)} s`,
    );
    for (const e of engines) await e.close();
  }
  const sorted = [...counts].sort((a, b) => a - b);
  console.log(
    `serialization retries per ${drivers * 2} units: min ${sorted[0]}, median ${sorted[Math.floor(sorted.length / 2)]}, max ${sorted.at(-1)}`,
  );
  const total = counts.reduce((a, b) => a + b, 0);
  console.log(`serialization retries per 1,000 units: ${((1000 * total) / (rounds * drivers * 2)).toFixed(0)}`);
  // Setup writes (logins, parcels) are in it too: every section, whoever held it.
  console.log(`serial section (lock granted -> COMMIT returned): ${summary(held)}`);
  console.log(`wait for the lock: ${summary(waited)}`);
  const heldMs = held.reduce((a, b) => a + b, 0);
  console.log(
    `feed rows written ${written}; sections ${held.length}${placed.length ? `, rows placed per section: ${summary(placed).replace(/ ms/g, '')}` : ''}; serial time per feed row ${(heldMs / Math.max(1, written)).toFixed(2)} ms`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runRetriesBench();
