import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load, printTable, startBenchServer, stopBenchServer, type LoadResult } from './load';
import { seedBenchDatabase } from './seed';

/** Foundation figures: remaining-packages list and inbound scan beside bare SQLite routes. */
export async function runApiBench(opts = { drivers: 200, perDriver: 100, connections: 10 }): Promise<LoadResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'courier-bench-'));
  const t0 = performance.now();
  const data = await seedBenchDatabase(join(dir, 'bench.db'), { companies: 20, drivers: opts.drivers, perDriver: opts.perDriver, unassigned: 0 });
  console.log(`seeded ${data.packages} packages for ${data.drivers.length} drivers in ${Math.round(performance.now() - t0)} ms`);
  const { url, child } = await startBenchServer(data.path);
  const rows: LoadResult[] = [];
  try {
    let i = 0;
    const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    rows.push(await load('bare insert (1 SQLite write)', url, () => ({ method: 'POST', path: '/bare/insert', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: `x${i++}` }) }), { connections: opts.connections }));
    rows.push(await load('bare read (1 indexed read)', url, () => ({ path: `/bare/read/${1 + (i++ % data.packages)}` }), { connections: opts.connections }));
    rows.push(await load('GET remaining-packages-list (100 pkgs)', url, () => {
      const d = data.drivers[i++ % data.drivers.length]!;
      return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: auth(d.token) };
    }, { connections: opts.connections }));
    // Each inbound scan loads a distinct parcel: a bounded run of exactly the parcels seeded.
    const scans: { token: string; barcode: string }[] = [];
    for (let k = 0; k < opts.perDriver; k++) for (const d of data.drivers) scans.push({ token: d.token, barcode: d.barcodes[k]! });
    let s = 0;
    rows.push(await load('POST inbound-scan (transition + event)', url, () => {
      const sc = scans[s++ % scans.length]!;
      return { method: 'POST', path: '/api/scan-package-api/inbound-scan/', headers: auth(sc.token), body: JSON.stringify({ barcode: sc.barcode }) };
    }, { connections: opts.connections, amount: Math.min(scans.length, 10_000) }));
  } finally {
    await stopBenchServer(child);
  }
  printTable(rows, 'bare insert (1 SQLite write)');
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runApiBench();
