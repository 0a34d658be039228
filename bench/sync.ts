import 'fake-indexeddb/auto';
import { pathToFileURL } from 'node:url';
import { createSyncEngine } from '../client/sync/index';
import { callApi, seedOverHttp, spawnServer } from '../test/helpers/server';

const N = 500;
const ms = (t: number) => `${Math.round(t)} ms`;
const rate = (n: number, t: number) => `${Math.round((n * 1000) / t)}/s`;

/**
 * The sync engine against the real server in its own process, on this machine: a first pull of
 * N assigned parcels into an empty device, then draining N queued scans, compared with N plain
 * REST calls of the same scan. The device database is fake-indexeddb (in memory, in Node), so
 * the client side is an estimate of a phone's, not a measurement of one.
 */
export async function runSyncBench(): Promise<{ pullMs: number; drainMs: number; plainMs: number; ratio: number }> {
  const server = await spawnServer();
  try {
    const viaEngine = await seedOverHttp(server.baseUrl, N, 'BQ');
    const plain = await seedOverHttp(server.baseUrl, N, 'BP');
    const engine = createSyncEngine({ baseUrl: server.baseUrl, dbName: `bench-sync-${process.pid}`, lock: 'lease' });
    await engine.login(viaEngine.driver.email, viaEngine.driver.password);

    let t0 = performance.now();
    await engine.syncNow();
    const pullMs = performance.now() - t0;
    const pulled = await engine.db.packages.count();

    for (const h of viaEngine.hawbs) await engine.enqueue(engine.actions.inboundScan(h));
    t0 = performance.now();
    await engine.syncNow();
    const drainMs = performance.now() - t0;
    const left = await engine.db.outbox.count();
    await engine.stop();

    const { token } = await callApi<{ token: string }>(server.baseUrl, 'POST', 'auth/login/', null, {
      email: plain.driver.email,
      password: plain.driver.password,
    });
    t0 = performance.now();
    for (const h of plain.hawbs) {
      await callApi(server.baseUrl, 'POST', 'scan-package-api/inbound-scan/', token, { barcode: h, occurred_at: new Date().toISOString() });
    }
    const plainMs = performance.now() - t0;
    const ratio = drainMs / plainMs;

    console.log(`pull ${pulled} assigned parcels into an empty device: ${ms(pullMs)}`);
    console.log(`drain ${N} queued scans (push, then pull): ${ms(drainMs)} (${rate(N, drainMs)}), ${left} left`);
    console.log(`${N} plain REST scans: ${ms(plainMs)} (${rate(N, plainMs)})`);
    console.log(`outbox / plain: ${ratio.toFixed(2)}x`);
    return { pullMs, drainMs, plainMs, ratio };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runSyncBench();
