/**
 * Does a bigger SQLite page cache make the read requests cheaper as the database grows? One process,
 * one scale database (SCALE_SIZES's first size, default 1M), the real app answering in process
 * (no HTTP, no load generator: on the shared 2-core machine their CPU is what makes autocannon
 * figures noisy). Per setting, CPU ms per request of this process for the driver's remaining list,
 * the staff list and the head-of-feed poll, the settings taking turns round after round so the
 * machine's changing load falls on each alike; the median round is reported.
 *
 *   SCALE_SIZES=1M npx tsx bench/scale/cache.ts          (CACHE_ROUNDS=5, CACHE_REQUESTS=2000)
 *   CACHE_SETTINGS="default;cache_size = -65536"        pragmas to compare, ";"-separated
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../../server/app';
import { systemClock } from '../../server/clock';
import { openDatabase, sqliteOf } from '../../server/db/client';
import { diskFileStore } from '../../server/files';
import { sizeOptions } from './plan';
import { seedSqlite } from './seed-sqlite';

const DAY = 86_400_000;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);

export async function runCacheBench(): Promise<void> {
  const size = (process.env.SCALE_SIZES ?? '1M').split(',')[0]!.trim();
  const settings = (process.env.CACHE_SETTINGS ?? 'default;cache_size = -65536').split(';').map((s) => s.trim());
  const rounds = Number(process.env.CACHE_ROUNDS ?? 5);
  const requests = Number(process.env.CACHE_REQUESTS ?? 2000);
  const dir = mkdtempSync(join(process.env.SCALE_DIR ?? tmpdir(), 'courier-cache-'));
  try {
    const path = join(dir, 'scale.db');
    const data = await seedSqlite(path, sizeOptions(size));
    // One app per setting, each on a connection of its own to the same file (as a restart with the setting would be).
    const apps = await Promise.all(
      settings.map(async (setting) => {
        const db = await openDatabase(path);
        if (setting !== 'default') sqliteOf(db)!.pragma(setting);
        return { setting, db, app: createApp({ db, files: diskFileStore(join(dir, 'files')), clock: systemClock }) };
      }),
    );
    const auth = (token: string) => ({ authorization: `Bearer ${token}` });
    const days = Math.max(1, Math.min(7, data.historyDays - 2));
    const now = Date.now();
    const requestOf: Record<string, (k: number) => { path: string; headers: Record<string, string> }> = {
      remaining: (k) => {
        const d = data.drivers[k % data.drivers.length]!;
        return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: auth(d.token) };
      },
      'staff list': (k) => {
        const from = now - (3 + (k % days)) * DAY;
        return {
          path: `/api/package/?status=delivered&company=${1 + (k % data.companies)}&created_from=${day(from)}&created_to=${day(from + DAY)}&search=Receiver%20${1 + (k % 9)}&page_size=50`,
          headers: auth(data.adminToken),
        };
      },
      'head poll': (k) => {
        const d = data.drivers[k % data.drivers.length]!;
        return { path: `/api/sync/changes/?cursor=${data.feedLast}`, headers: auth(d.token) };
      },
    };
    const figures = new Map<string, number[]>();
    for (let r = 0; r < rounds; r++) {
      for (const [name, next] of Object.entries(requestOf)) {
        for (const { setting, app } of apps) {
          // Each setting walks the same drivers in the same order, from a different start each round.
          const start = r * requests;
          const cpu = process.cpuUsage();
          for (let k = start; k < start + requests; k++) {
            const { path: p, headers } = next(k);
            const res = await app.request(`http://bench${p}`, { headers });
            if (res.status !== 200) throw new Error(`${name} answered ${res.status}`);
            await res.arrayBuffer();
          }
          const used = process.cpuUsage(cpu);
          const key = `${name} | ${setting}`;
          figures.set(key, [...(figures.get(key) ?? []), (used.user + used.system) / 1000 / requests]);
        }
      }
    }
    console.log(
      `\nSQLite ${size} (${data.packages} parcels): CPU ms per request in process, median of ${rounds} rounds of ${requests} (min–max)`,
    );
    console.log('| request | setting | ms | rounds |');
    console.log('|---|---|---:|---|');
    for (const [key, xs] of figures) {
      const s = [...xs].sort((a, b) => a - b);
      console.log(`| ${key} | ${s[Math.floor(s.length / 2)]!.toFixed(3)} | ${s[0]!.toFixed(3)}–${s.at(-1)!.toFixed(3)} |`);
    }
    for (const { db } of apps) await db.$engine.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runCacheBench();
