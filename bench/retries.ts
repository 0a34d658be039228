/**
 * What SERIALIZABLE costs PostgreSQL on a brand-new database: the first-morning scenario of
 * test/server/concurrent-fresh.test.ts (30 drivers scan at once, then deliver at once; 60 units)
 * repeated on fresh databases, counting the units the engine ran again (`retried`, by SQLSTATE).
 * The count varies from run to run (which units overlap is up to the scheduler), so it is a figure
 * for notes, not a test. Beside it, retries per 1,000 units and the serial section: how long each
 * unit held the change feed's lock, from its grant to COMMIT's return (bench/serialSection.ts).
 *
 *   bash scripts/with-postgres.sh npx tsx bench/retries.ts        (RETRY_ROUNDS=5, RETRY_DRIVERS=30)
 */
import { pathToFileURL } from 'node:url';
import type { PostgresEngine } from '../server/db/engine/postgres';
import { makeApp } from '../test/helpers/app';
import { firstMorning } from '../test/helpers/firstMorning';
import { summary, timeSerialSection } from './serialSection';

export async function runRetriesBench(
  rounds = Number(process.env.RETRY_ROUNDS ?? 5),
  drivers = Number(process.env.RETRY_DRIVERS ?? 30),
): Promise<void> {
  if (!process.env.TEST_DATABASE_URL) {
    console.log('retries: PostgreSQL only (run under scripts/with-postgres.sh)');
    return;
  }
  const counts: number[] = [];
  const held: number[] = [];
  const waited: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = await makeApp();
    const serial = timeSerialSection(t.db.$engine as PostgresEngine);
    const morning = await firstMorning(t, drivers);
    held.push(...serial.held);
    waited.push(...serial.waited);
    const failed = [...morning.scans, ...morning.delivers].filter((s) => s !== 200).length;
    const { retried } = t.db.$engine as PostgresEngine;
    counts.push(retried.serialization);
    console.log(
      `round ${r + 1}: ${drivers * 2} units (scan + deliver), retried: ${retried.serialization} serialization (40001), ${retried.deadlock} deadlock, ${retried.unique} unique; non-200 answers ${failed}`,
    );
    await t.db.$engine.close();
  }
  const sorted = [...counts].sort((a, b) => a - b);
  console.log(
    `serialization retries per ${drivers * 2} units: min ${sorted[0]}, median ${sorted[Math.floor(sorted.length / 2)]}, max ${sorted.at(-1)}`,
  );
  const total = counts.reduce((a, b) => a + b, 0);
  console.log(`serialization retries per 1,000 units: ${((1000 * total) / (rounds * drivers * 2)).toFixed(0)}`);
  // Setup writes (logins, parcels) are in it too: every unit that took the feed's lock.
  console.log(`serial section (feed lock granted -> COMMIT returned): ${summary(held)}`);
  console.log(`wait for the feed lock: ${summary(waited)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runRetriesBench();
