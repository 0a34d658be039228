import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load, paired, printPaired, printTable, startBenchServer, stopBenchServer, type LoadResult, type PairedResult } from './load';
import { seedBenchDatabase } from './seed';

/**
 * Foundation figures: the remaining-packages list and the inbound scan, each beside a bare Hono route
 * on the same SQLite connection doing the same database work with nothing around it (bench/server.ts):
 * the list joined from ready-made JSON rows, the scan's UPDATE + INSERT in one transaction (one fsync
 * per request). Server CPU per request comes from /proc.
 */
export async function runApiBench(opts = { drivers: 100, perDriver: 200, connections: 10, bareParcels: 2000 }): Promise<LoadResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'courier-bench-'));
  const t0 = performance.now();
  const data = await seedBenchDatabase(join(dir, 'bench.db'), {
    companies: 20,
    drivers: opts.drivers,
    perDriver: opts.perDriver,
    unassigned: opts.bareParcels,
  });
  console.log(`seeded ${data.packages} packages for ${data.drivers.length} drivers in ${Math.round(performance.now() - t0)} ms`);
  const { url, child } = await startBenchServer(data.path, { BENCH_BARE_LISTS: '1' });
  const rows: LoadResult[] = [];
  const pairs: PairedResult[] = [];
  const c = { connections: opts.connections, pid: child.pid };
  try {
    let i = 0;
    const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    const driver = () => data.drivers[i++ % data.drivers.length]!;
    await load('warm-up', url, () => ({ path: `/bare/read/${1 + (i++ % data.packages)}` }), { connections: opts.connections, duration: 1 });
    rows.push(
      await load(
        'bare insert (1 SQLite write)',
        url,
        () => ({
          method: 'POST',
          path: '/bare/insert',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ v: `x${i++}` }),
        }),
        c,
      ),
    );
    rows.push(await load('bare read (1 indexed read)', url, () => ({ path: `/bare/read/${1 + (i++ % data.packages)}` }), c));
    rows.push(
      await load(
        `bare remaining (${opts.perDriver} ready-made JSON rows joined)`,
        url,
        () => ({ path: `/bare/remaining/${driver().id}` }),
        c,
      ),
    );
    rows.push(
      await load(
        `GET remaining-packages-list (${opts.perDriver} pkgs)`,
        url,
        () => {
          const d = driver();
          return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: auth(d.token) };
        },
        c,
      ),
    );
    // The aims (issue 20) are ratios to the bare routes: measured again in alternating rounds, before
    // any scan (the bare list joins every parcel of the driver, the real one those not yet scanned).
    const remainingReal = () => {
      const d = driver();
      return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: auth(d.token) };
    };
    const remainingBare = () => ({ path: `/bare/remaining/${driver().id}` });
    pairs.push(
      await paired(`GET remaining-packages-list (${opts.perDriver} pkgs)`, 'bare remaining', url, child.pid, remainingReal, remainingBare),
    );
    // Each inbound scan loads a distinct parcel: a bounded run of exactly the parcels seeded.
    const scans: { token: string; barcode: string }[] = [];
    for (let k = 0; k < opts.perDriver; k++) for (const d of data.drivers) scans.push({ token: d.token, barcode: d.barcodes[k]! });
    const amount = Math.min(scans.length, 10_000);
    // The bare scan's parcels are its own (seeded unassigned, BU…): it flips their status back and forth.
    let b = 0;
    const bareBarcode = () => `BU${String(b++ % opts.bareParcels).padStart(8, '0')}`;
    rows.push(
      await load(
        'bare touch (updated_at only + INSERT: the first bare scan)',
        url,
        () => ({
          method: 'POST',
          path: '/bare/touch',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ barcode: bareBarcode() }),
        }),
        { ...c, amount },
      ),
    );
    rows.push(
      await load(
        "bare scan (the scan's UPDATE + INSERT, 1 fsync each)",
        url,
        () => ({
          method: 'POST',
          path: '/bare/scan',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ barcode: bareBarcode() }),
        }),
        { ...c, amount },
      ),
    );
    let s = 0;
    rows.push(
      await load(
        'POST inbound-scan (transition + event)',
        url,
        () => {
          const sc = scans[s++ % scans.length]!;
          return {
            method: 'POST',
            path: '/api/scan-package-api/inbound-scan/',
            headers: auth(sc.token),
            body: JSON.stringify({ barcode: sc.barcode }),
          };
        },
        { ...c, amount },
      ),
    );
    // Scans go on with parcels not scanned yet (the runs above took the first `amount`).
    const scanReal = () => {
      const sc = scans[s++ % scans.length]!;
      return {
        method: 'POST',
        path: '/api/scan-package-api/inbound-scan/',
        headers: auth(sc.token),
        body: JSON.stringify({ barcode: sc.barcode }),
      };
    };
    const scanBare = () => ({
      method: 'POST',
      path: '/bare/scan',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ barcode: bareBarcode() }),
    });
    // Three rounds of 2 s stay within the parcels left at ~1,500 scans/s (a repeat would answer already_scanned).
    pairs.push(await paired('POST inbound-scan', 'bare scan', url, child.pid, scanReal, scanBare, { rounds: 3 }));
  } finally {
    await stopBenchServer(child);
  }
  printTable(rows, 'bare insert (1 SQLite write)');
  const ratio = (real: string, bare: string) => {
    const r = rows.find((x) => x.name.startsWith(real));
    const b0 = rows.find((x) => x.name.startsWith(bare));
    if (r && b0)
      console.log(
        `${real} / ${bare}: ${(r.rps / b0.rps).toFixed(2)}x req/s, ${r.cpuMs && b0.cpuMs ? (r.cpuMs / b0.cpuMs).toFixed(2) : '-'}x CPU per request`,
      );
  };
  ratio('GET remaining-packages-list', 'bare remaining');
  ratio('POST inbound-scan', 'bare scan');
  ratio('POST inbound-scan', 'bare touch');
  for (const p of pairs) printPaired(p);
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runApiBench();
