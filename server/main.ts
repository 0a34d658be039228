import { standingDeliveryJob } from './services/standing/run';
import cluster from 'node:cluster';
import { uploadQuotas } from './services/files/allowance';
import { resolve } from 'node:path';
import { createApp } from './app';
import { systemClock } from './clock';
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
import { jobLease } from './services/background/lease';
import { historyMover, parseHistoryAfterDays } from './services/history/move';
import { parseTimeZone } from './services/time/zones';

/** Reads the environment (README "Configuration"), opens and migrates the database, serves API and PWA. */
const env = process.env;
const port = Number(env.PORT ?? 3000);
const host = env.HOST ?? '0.0.0.0';
const databasePath = resolve(env.DATABASE_PATH ?? './data/courier.db');
const databaseUrl = env.DATABASE_URL || undefined;
const staticDir = resolve(env.STATIC_DIR ?? './dist');
const workers = Number(env.WORKERS ?? 1);
const poolSize = Number(env.DATABASE_POOL_SIZE ?? 0);
if (!Number.isInteger(poolSize) || poolSize < 0) throw new Error('DATABASE_POOL_SIZE must be a whole number of connections');
if (!Number.isInteger(workers) || workers < 1) throw new Error('WORKERS must be a whole number of processes, 1 or more');
if (workers > 1 && !databaseUrl) {
  console.error(
    '[courier] WORKERS > 1 needs PostgreSQL (DATABASE_URL): SQLite is served by one process, which commits for all requests at once',
  );
  process.exit(1);
}

// WORKERS=N: this process migrates once, then starts N server processes sharing the port (Node's
// cluster module) and replaces any that dies. Each is the whole server on its own connections.
if (workers > 1 && cluster.isPrimary) {
  // Migrated and the first admin created once, here, before any worker starts (two workers
  // creating the same admin at once would both try).
  const db = await openDatabase({ url: databaseUrl });
  const line = bootstrapMessage(await bootstrapSuperAdmin(db, systemClock, env.ADMIN_EMAIL, env.ADMIN_PASSWORD));
  if (line) console.log(line);
  await db.$engine.close();
  const start = (id: number) =>
    cluster.fork({ COURIER_WORKER: String(id) }).on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`[courier] worker ${id} stopped (${signal ?? code}); starting another`);
      setTimeout(() => start(id), 1000);
    });
  let stopping = false;
  for (let id = 1; id <= workers; id += 1) start(id);
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
} else {
  await serve();
}

async function serve(): Promise<void> {
  const worker = Number(env.COURIER_WORKER ?? 1);
  const db = await openDatabase({ url: databaseUrl, path: databasePath, poolSize: poolSize || undefined });
  // SQLite's WAL checkpoints run in a worker thread: inside a COMMIT they stalled every request behind it.
  const upkeep = db.$engine.startUpkeep((line) => console.error(line));
  // Under WORKERS=N the primary did this already.
  if (!env.COURIER_WORKER) {
    const bootstrapLine = bootstrapMessage(await bootstrapSuperAdmin(db, systemClock, env.ADMIN_EMAIL, env.ADMIN_PASSWORD));
    if (bootstrapLine) console.log(bootstrapLine);
  }

  const security = securityConfig(env);
  const historyAfterDays = parseHistoryAfterDays(env.HISTORY_AFTER_DAYS);
  const timeZone = parseTimeZone(env.TIME_ZONE);
  for (const line of security.warnings) console.warn(`[courier] WARNING: ${line}`);

  // FILES_URL=s3://… puts files in a bucket every process and machine shares; else the FILES_DIR directory.
  const files = openFileStore(env);

  const app = createApp({
    db,
    files,
    clock: systemClock,
    config: {
      staticDir,
      ...security.config,
      logRequests: env.LOG_REQUESTS !== '0',
      geocoderUrl: env.GEOCODER_URL || undefined,
      osrmUrl: env.OSRM_URL || undefined,
      ...(env.GEOCODER_INTERVAL_MS ? { geocoderIntervalMs: Number(env.GEOCODER_INTERVAL_MS) } : {}),
      ...(env.TRAVEL_SPEED_KMH ? { travelSpeedKmh: Number(env.TRAVEL_SPEED_KMH) } : {}),
      ...(env.DETOUR_FACTOR ? { detourFactor: Number(env.DETOUR_FACTOR) } : {}),
      ...uploadQuotas(env),
      webhookAllow: (env.WEBHOOK_ALLOW_HOSTS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      historyAfterDays,
      timeZone,
    },
  });

  const writes = app.deps.writes;

  // Old idempotency answers (30 days) and change-feed rows (90 days) go; each device's last seq stays.
  // Background work runs in the first worker of a machine; several machines may each run it: messages
  // and webhooks are claimed row by row in the database, so two runners never send one twice; the
  // sweeps, the geocoder and the history mover run only on the machine holding their job's lease
  // (server/services/background/lease.ts).
  const background = worker === 1;
  const maintenanceLease = jobLease(db, systemClock, 'sync-maintenance', 2 * 3600_000);
  const sweepLease = jobLease(db, systemClock, 'file-sweep', 2 * 3600_000);
  const maintenance = !background
    ? null
    : setInterval(() => {
        maintenanceLease
          .hold()
          .then((mine) => (mine ? writes.run(() => runSyncMaintenance(app.deps)) : undefined))
          .catch((err: unknown) => console.error('[courier] sync maintenance failed', err));
      }, 3600_000);
  maintenance?.unref();

  // Bytes on disk that no file record names (refused uploads, crashes mid-upload) go after a grace period.
  const fileSweep = !background
    ? null
    : setInterval(() => {
        sweepLease
          .hold()
          .then((mine) => (mine ? sweepOrphanFiles(app.deps) : 0))
          .then((n) => {
            if (n) console.log(`[courier] removed ${n} unreferenced file(s)`);
          })
          .catch((err: unknown) => console.error('[courier] file sweep failed', err));
      }, 3600_000);
  fileSweep?.unref();

  // Outbound webhooks wait in a durable SQLite queue; the dispatcher drains it with back-off. The queue
  // is read only while no write batch is open, so a delivery leaves only once what queued it committed.
  const webhooks = createWebhookDispatcher({
    db,
    clock: systemClock,
    allow: app.deps.config.webhookAllow,
    log: (line) => console.log(line),
  });
  async function dispatchCommitted(): Promise<void> {
    while (writes.open) await writes.settled().catch(() => undefined);
    await webhooks.runOnce();
  }
  const dispatch = !background
    ? null
    : setInterval(() => {
        dispatchCommitted().catch((err: unknown) => console.log(`[webhooks] dispatcher error: ${String(err)}`));
      }, 5_000);
  dispatch?.unref();

  // E-mail and SMS (password resets, recipient notices) wait in message_outbox; the dispatcher sends
  // each at most once, after what queued it committed (it waits for the open write batch itself).
  if (!env.PUBLIC_URL) console.warn(`[courier] ${NO_PUBLIC_URL_WARNING}`);
  const messages = messageDispatcherFor(
    app.deps,
    transportsFromEnv(env, (line) => console.log(line)),
    { log: (line) => console.log(line) },
  );
  if (background) messages.start(2_000);
  // Addresses waiting for the external geocoder are asked in the background, never inside a request.
  const geocoder = background && app.deps.config.geocoderUrl ? createGeocodeWorker(app.deps, { log: (line) => console.log(line) }) : null;
  const geocoding = geocoder
    ? setInterval(() => {
        geocoder.runOnce().catch((err: unknown) => console.log(`[geocoder] error: ${String(err)}`));
      }, 2_000)
    : null;
  geocoding?.unref();

  // Parcels final for HISTORY_AFTER_DAYS move to cold storage, a bounded batch per unit of work.
  const historyStop = new AbortController();
  const history = background && historyAfterDays > 0 ? historyMover(app.deps, historyStop.signal, (line) => console.log(line)) : null;
  history?.start();
  // Standing deliveries (issue 34) create each day's parcels; each rule's day is claimed once in the database.
  const standing = background ? standingDeliveryJob(app.deps, (line) => console.log(line)) : null;
  standing?.start();

  // Unread request bodies are drained (or the connection closed gracefully): every request gets an answer.
  const server = listen(app.fetch, { port, hostname: host }, (bound) => {
    const where = databaseUrl ? `PostgreSQL ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}` : databasePath;
    console.log(
      `[courier] ${workers > 1 ? `worker ${worker}: ` : ''}listening on http://${host === '0.0.0.0' ? 'localhost' : host}:${bound} (API /api/, docs /api/docs, database ${where}, files ${files.location})`,
    );
  });

  // In-flight requests finish (each answered once its batch committed), then whatever background work
  // left in an open batch is committed and the database closes: an answered write is never cut in half.
  let closing = false;
  function shutdown(signal: string): void {
    if (closing) return;
    closing = true;
    console.log(`[courier] ${signal}: closing`);
    for (const timer of [dispatch, geocoding, maintenance, fileSweep]) if (timer) clearInterval(timer);
    historyStop.abort();
    // Background passes in flight finish before the database closes (a pass querying a closed pool crashed the process).
    const background = Promise.all([webhooks.stop(), messages.stop(), history?.stop(), standing?.stop()]).catch(() => undefined);
    server.close(async () => {
      await background;
      await writes.flush();
      await upkeep.stop().catch(() => undefined);
      await db.$engine.close().catch(() => undefined);
      process.exit(0);
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
