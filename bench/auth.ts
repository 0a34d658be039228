import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../server/app';
import { systemClock } from '../server/clock';
import { openDatabase } from '../server/db/client';
import { user } from '../server/db/schema/index';
import { diskFileStore } from '../server/files';
import { hashPassword } from '../server/services/auth/passwords';

/**
 * Issue 15 item 6: every credential path spends the same hash work for an unknown e-mail as for a
 * known one with a wrong password. Median answer time of each path, known vs unknown, with the
 * production hash cost, requests interleaved so machine noise hits both alike.
 */
export async function runAuthBench(rounds = 9): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'courier-auth-bench-'));
  const db = await openDatabase(join(dir, 'c.db'));
  const app = createApp({
    db,
    files: diskFileStore(join(dir, 'files')),
    clock: systemClock,
    config: { trustProxy: 1, publicUrl: 'https://bench.test' },
  });
  const now = Date.now();
  const hash = await hashPassword('bench-password-1');
  await db
    .insert(user)
    .values({ name: 'Known', email: 'known@bench.test', role: 'admin', password_hash: hash, created_at: now, updated_at: now })
    .run();
  // Known accounts for forget-password, named by the request counter the bench will reach.
  for (let i = 1; i <= rounds * 8; i++)
    await db
      .insert(user)
      .values({ name: `K${i}`, email: `known${i}@bench.test`, role: 'driver', password_hash: hash, created_at: now, updated_at: now })
      .run();
  let ip = 0;
  const time = async (path: string, body: unknown): Promise<{ ms: number; status: number }> => {
    ip += 1; // one address per request: the throttle is not what is measured here
    const t0 = performance.now();
    const res = await app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${ip >> 16}.${(ip >> 8) & 255}.${ip & 255}` },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return { ms: performance.now() - t0, status: res.status };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const paths: [string, (email: string) => unknown][] = [
    ['/api/auth/login/', (email) => ({ email, password: 'wrong-password' })],
    ['/api/auth/web-login/', (email) => ({ email, password: 'wrong-password' })],
    ['/api/auth/password-change-with-email/', (email) => ({ email, old_password: 'wrong-password', new_password: 'new-password-1' })],
    // A fresh known account per round: the per-e-mail limit (5 an hour) is not what is measured.
    ['/api/auth/forget-password/', (email) => ({ email: email === 'known@bench.test' ? `known${ip}@bench.test` : email })],
  ];
  for (const [path, body] of paths) {
    const known: number[] = [];
    const unknown: number[] = [];
    const statuses = new Set<string>();
    for (let i = 0; i < rounds; i++) {
      const k = await time(path, body('known@bench.test'));
      const u = await time(path, body(`ghost${i}@bench.test`));
      known.push(k.ms);
      unknown.push(u.ms);
      statuses.add(`${k.status}/${u.status}`);
    }
    console.log(
      `${path.padEnd(40)} known ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms (median of ${rounds}; status known/unknown ${[...statuses].join(',')})`,
    );
  }
  await db.$engine.close();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAuthBench();
