import { resolve } from 'node:path';
import { createApp } from './app';
import { systemClock } from './clock';
import { startCheckpointer } from './db/checkpointer';
import { openDatabase } from './db/client';
import { listen } from './http/listen';
import { openFileStore } from './files/index';
import { bootstrapMessage, bootstrapSuperAdmin } from './services/auth/bootstrap';
import { sweepOrphanFiles } from './services/files/sweep';
import { runSyncMaintenance } from './services/sync/maintenance';
import { createWebhookDispatcher } from './services/webhooks/dispatcher';
import { messageDispatcherFor, transportsFromEnv } from './services/messages/setup';
import { NO_PUBLIC_URL_WARNING } from './services/recipients/links';
import { securityConfig } from './securityConfig';
import { createGeocodeWorker } from './services/geo/geocoder';

/** Reads the environment (README "Configuration"), opens and migrates the database, serves API and PWA. */
const env = process.env;
const port = Number(env.PORT ?? 3000);
const host = env.HOST ?? '0.0.0.0';
const databasePath = resolve(env.DATABASE_PATH ?? './data/courier.db');
const staticDir = resolve(env.STATIC_DIR ?? './dist');

const db = openDatabase(databasePath);
// WAL checkpoints in a worker thread: inside a COMMIT they stalled every request behind it.
const checkpoints = startCheckpointer(db.$client, { log: (line) => console.error(line) });
const bootstrap = await bootstrapSuperAdmin(db, systemClock, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
const bootstrapLine = bootstrapMessage(bootstrap);
if (bootstrapLine) console.log(bootstrapLine);

const security = securityConfig(env);
for (const line of security.warnings) console.warn(`[courier] WARNING: ${line}`);

// FILES_URL=s3://… puts files in a bucket every process and machine shares; else the FILES_DIR directory.
const files = openFileStore(env);

const app = createApp({
  db,
  files,
  clock: systemClock,
  config: {
    staticDir, ...security.config, logRequests: env.LOG_REQUESTS !== '0',
    geocoderUrl: env.GEOCODER_URL || undefined, osrmUrl: env.OSRM_URL || undefined,
    ...(env.GEOCODER_INTERVAL_MS ? { geocoderIntervalMs: Number(env.GEOCODER_INTERVAL_MS) } : {}),
    ...(env.TRAVEL_SPEED_KMH ? { travelSpeedKmh: Number(env.TRAVEL_SPEED_KMH) } : {}),
    ...(env.DETOUR_FACTOR ? { detourFactor: Number(env.DETOUR_FACTOR) } : {}),
    webhookAllow: (env.WEBHOOK_ALLOW_HOSTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  },
});

const writes = app.deps.writes;

// Old idempotency answers (30 days) and change-feed rows (90 days) go; each device's last seq stays.
const maintenance = setInterval(() => {
  writes.run(() => runSyncMaintenance(app.deps)).catch((err: unknown) => console.error('[courier] sync maintenance failed', err));
}, 3600_000);
maintenance.unref();

// Bytes on disk that no file record names (refused uploads, crashes mid-upload) go after a grace period.
const fileSweep = setInterval(() => {
  sweepOrphanFiles(app.deps).then((n) => { if (n) console.log(`[courier] removed ${n} unreferenced file(s)`); })
    .catch((err: unknown) => console.error('[courier] file sweep failed', err));
}, 3600_000);
fileSweep.unref();

// Outbound webhooks wait in a durable SQLite queue; the dispatcher drains it with back-off. The queue
// is read only while no write batch is open, so a delivery leaves only once what queued it committed.
const webhooks = createWebhookDispatcher({ db, clock: systemClock, allow: app.deps.config.webhookAllow, log: (line) => console.log(line) });
async function dispatchCommitted(): Promise<void> {
  while (writes.open) await writes.settled().catch(() => undefined);
  await webhooks.runOnce();
}
const dispatch = setInterval(() => {
  dispatchCommitted().catch((err: unknown) => console.log(`[webhooks] dispatcher error: ${String(err)}`));
}, 5_000);
dispatch.unref();

// E-mail and SMS (password resets, recipient notices) wait in message_outbox; the dispatcher sends
// each at most once, after what queued it committed (it waits for the open write batch itself).
if (!env.PUBLIC_URL) console.warn(`[courier] ${NO_PUBLIC_URL_WARNING}`);
const messages = messageDispatcherFor(app.deps, transportsFromEnv(env, (line) => console.log(line)), { log: (line) => console.log(line) });
messages.start(2_000);
// Addresses waiting for the external geocoder are asked in the background, never inside a request.
const geocoder = app.deps.config.geocoderUrl ? createGeocodeWorker(app.deps, { log: (line) => console.log(line) }) : null;
const geocoding = geocoder ? setInterval(() => {
  geocoder.runOnce().catch((err: unknown) => console.log(`[geocoder] error: ${String(err)}`));
}, 2_000) : null;
geocoding?.unref();

// Unread request bodies are drained (or the connection closed gracefully): every request gets an answer.
const server = listen(app.fetch, { port, hostname: host }, (bound) => {
  console.log(`[courier] listening on http://${host === '0.0.0.0' ? 'localhost' : host}:${bound} (API /api/, docs /api/docs, database ${databasePath}, files ${files.location})`);
});

// In-flight requests finish (each answered once its batch committed), then whatever background work
// left in an open batch is committed and the database closes: an answered write is never cut in half.
let closing = false;
function shutdown(signal: string): void {
  if (closing) return;
  closing = true;
  console.log(`[courier] ${signal}: closing`);
  clearInterval(dispatch);
  if (geocoding) clearInterval(geocoding);
  void webhooks.stop();
  void messages.stop();
  server.close(() => {
    writes.flush();
    void checkpoints.stop().finally(() => {
      db.$client.close();
      process.exit(0);
    });
  });
  setTimeout(() => process.exit(1), 10_000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
