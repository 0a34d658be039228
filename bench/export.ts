import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../server/app';
import { systemClock } from '../server/clock';
import { openDatabase, sqliteOf, type Db } from '../server/db/client';
import { authToken, company, user, zone } from '../server/db/schema/index';
import { diskFileStore } from '../server/files';
import { newToken } from '../server/services/auth/tokens';

const N = Number(process.env.EXPORT_BENCH_ROWS ?? 100_000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * N packages written straight into SQLite with one prepared statement in one transaction (the API
 * would take minutes; bench/seed.ts does the same for its day of work).
 */
async function seed(db: Db, now: number): Promise<string> {
  const companyId = (
    await db
      .insert(company)
      .values({ name: 'Export Co', code: 'EXP', email: 'exp@bench.test', created_at: now, updated_at: now })
      .returning()
      .get()
  ).id;
  const zones: number[] = [];
  for (let i = 0; i < 10; i++)
    zones.push(
      (
        await db
          .insert(zone)
          .values({ name: `Zone ${i}`, created_at: now, updated_at: now })
          .returning()
          .get()
      ).id,
    );
  const admin = await db
    .insert(user)
    .values({ name: 'Bench Admin', email: 'admin@export.test', role: 'super_admin', created_at: now, updated_at: now })
    .returning()
    .get();
  const t = newToken();
  await db
    .insert(authToken)
    .values({ user_id: admin.id, token_hash: t.hash, kind: 'web', expires_at: now + 86_400_000, created_at: now })
    .run();
  const sqlite = sqliteOf(db)!;
  const insert =
    sqlite.prepare(`INSERT INTO package (hawb, company_id, zone_id, status, customer_name, customer_address, customer_phone, postcode,
    description_of_goods, weight, price, delivery_date, created_at, updated_at) VALUES (?, ?, ?, 'created', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  sqlite.transaction(() => {
    for (let i = 0; i < N; i++) {
      // Every 1000th customer typed a formula, as a hostile sender might.
      const name = i % 1000 === 0 ? `=HYPERLINK("http://x.test/${i}")` : `Receiver ${i}`;
      insert.run(
        `EX${String(i).padStart(8, '0')}`,
        companyId,
        zones[i % zones.length],
        name,
        `${i} Export Street, Sydney`,
        '0400 000 000',
        2000 + (i % 100),
        'Books and small electronics',
        1 + (i % 7),
        10 + (i % 50),
        '2026-01-20',
        now - (i % 1000),
        now,
      );
    }
  })();
  return t.token;
}

interface Run {
  format: string;
  rows: number;
  bytes: number;
  ms: number;
  peakGrowth: number;
  liveGrowth: number | null;
}

/** Reads the body chunk by chunk and drops it, sampling RSS meanwhile: what stays resident is the server's. */
async function exportOnce(app: ReturnType<typeof createApp>, token: string, format: 'csv' | 'xlsx', day: string): Promise<Run> {
  const gc = globalThis.gc;
  gc?.();
  const base = process.memoryUsage().rss;
  const heapBase = process.memoryUsage().heapUsed;
  let peak = base;
  let live = heapBase;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  // With --expose-gc, the heap right after a collection is what the export really holds (RSS also counts garbage not yet collected).
  const liveTimer = gc
    ? setInterval(() => {
        gc();
        live = Math.max(live, process.memoryUsage().heapUsed);
      }, 250)
    : null;
  const t0 = performance.now();
  const res = await app.request(`/api/report/company/package-excel-download/?format=${format}&from=${day}&to=${day}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  const rows = Number(res.headers.get('x-total-rows'));
  let bytes = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const ms = performance.now() - t0;
  clearInterval(timer);
  if (liveTimer) clearInterval(liveTimer);
  return { format, rows, bytes, ms, peakGrowth: peak - base, liveGrowth: gc ? live - heapBase : null };
}

/**
 * Exports N packages as CSV and as XLSX through the real route (in-process `app.request`, streamed
 * body read as a client would), reporting time, size and peak RSS growth during each export. RSS
 * also counts garbage not yet collected, so with --expose-gc the live heap is sampled too: buffered,
 * it would grow with N; streamed, it stays at a few pages' worth.
 */
export async function runExportBench(): Promise<Run[]> {
  const dir = mkdtempSync(join(tmpdir(), 'courier-export-bench-'));
  try {
    const db = await openDatabase(join(dir, 'bench.db'));
    const now = Date.now();
    const t0 = performance.now();
    const token = await seed(db, now);
    console.log(`seeded ${N} packages in ${Math.round(performance.now() - t0)} ms`);
    const app = createApp({ db, files: diskFileStore(join(dir, 'files')), clock: systemClock });
    const day = new Date(now).toISOString().slice(0, 10);
    const runs: Run[] = [];
    for (const format of ['csv', 'xlsx'] as const) {
      const r = await exportOnce(app, token, format, day);
      runs.push(r);
      console.log(
        `${format}: ${r.rows} rows, ${mb(r.bytes)} in ${Math.round(r.ms)} ms (${Math.round(r.rows / (r.ms / 1000))} rows/s), peak RSS growth ${mb(r.peakGrowth)}` +
          (r.liveGrowth == null
            ? ' (run with node --expose-gc --import tsx for the live heap)'
            : `, peak live heap growth ${mb(r.liveGrowth)}`),
      );
    }
    await db.$engine.close();
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runExportBench();
