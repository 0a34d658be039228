import { createStore } from '../app/store';
import { haversineDistance } from '../../shared/routing/haversine';
import { engine } from './engine';
import { notePlace } from './geo';
import { LOCAL_KEYS } from './localKeys';
import type { RouteRecord } from '../../shared/schemas/routes';
import type { ViewPackage } from '../sync/index';

/**
 * The van's position while its driver is on duty (issue 31): the browser's own fixes, kept when the
 * van moved MIN_METRES or MIN_INTERVAL_MS passed, buffered on the phone (localStorage, so a page that
 * dies keeps them) and sent as one outbox action per batch: an Idempotency-Key and the device seq
 * like every other action, so a batch arrives once and in order, offline stretches included (the
 * server also keeps one reading per driver and device time, so a re-sent batch stores nothing twice).
 */
export interface Reading {
  latitude: number;
  longitude: number;
  accuracy?: number;
  occurred_at: string;
}

export const MIN_METRES = 50;
export const MIN_INTERVAL_MS = 60_000;
/** A fix this vague (cell towers, indoors) says nothing a map can use. */
export const MAX_ACCURACY_M = 1000;
/** With signal, a batch goes once its oldest reading is this old (the office's map lags at most this). */
export const FLUSH_AFTER_MS = 30_000;
/** The server takes at most this many readings per request (shared/schemas/routes.ts). */
export const BATCH_MAX = 500;
export const POSITIONS_PATH = 'driver-position/';

/** Whether a new fix is worth keeping after the last kept one. */
export function worthKeeping(last: Reading | null, next: Reading): boolean {
  if (next.accuracy != null && next.accuracy > MAX_ACCURACY_M) return false;
  if (!last) return true;
  const dt = Date.parse(next.occurred_at) - Date.parse(last.occurred_at);
  if (dt <= 0) return false;
  return dt >= MIN_INTERVAL_MS || haversineDistance(last, next) >= MIN_METRES;
}

/** The phone's own date, as the route list names days. */
export function phoneDay(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * On duty: a parcel is on the van (loaded, a queued load counted in), or one of today's routes is
 * running. Before the first load and after the last stop the phone does not say where it is.
 */
export function onDuty(packages: Pick<ViewPackage, 'status'>[], list: Pick<RouteRecord, 'status' | 'date'>[], today = phoneDay()): boolean {
  return packages.some((p) => p.status === 'out_for_delivery') || list.some((r) => r.status === 'in_progress' && r.date === today);
}

/** The driver refused the phone's location: said once (LocationNote), the day goes on without it. */
export const locationRefused = createStore<boolean>(false);

function readBuffer(): Reading[] {
  try {
    const raw = localStorage.getItem(LOCAL_KEYS.positions);
    return raw ? (JSON.parse(raw) as Reading[]) : [];
  } catch {
    return [];
  }
}

let buffer: Reading[] | null = null;
let lastKept: Reading | null = null;
let watchId: number | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
let sentOne = false;
// One flush at a time: a batch leaves the buffer only after it is safely in the outbox.
let chain: Promise<void> = Promise.resolve();

const pending = () => (buffer ??= readBuffer());
const save = () => {
  try {
    localStorage.setItem(LOCAL_KEYS.positions, JSON.stringify(pending()));
  } catch {
    /* storage full: they stay in memory */
  }
};
const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

function due(now: number): boolean {
  const list = pending();
  if (!list.length) return false;
  if (list.length >= BATCH_MAX) return true;
  // Without signal the readings wait on the phone and go as one batch when it returns.
  if (offline()) return false;
  // The first reading of a shift goes at once: it puts the van on the map and starts the route.
  return !sentOne || now - Date.parse(list[0]!.occurred_at) >= FLUSH_AFTER_MS;
}

/** Moves due readings (all of them with `force`) into the outbox, oldest first, BATCH_MAX a row. */
export function flushPositions(force = false): Promise<void> {
  chain = chain
    .then(async () => {
      while (force ? pending().length > 0 : due(Date.now())) {
        const batch = pending().slice(0, BATCH_MAX);
        await engine().enqueue({
          path: POSITIONS_PATH,
          body: { positions: batch },
          label: `Van position${batch.length === 1 ? '' : 's'} (${batch.length})`,
        });
        sentOne = true;
        buffer = pending().slice(batch.length);
        save();
      }
    })
    .catch(() => undefined);
  return chain;
}

function onFix(p: GeolocationPosition): void {
  locationRefused.set(false);
  // The phone's own clock, as every other action it queues: a fix's own timestamp may come from another
  // clock (GPS time on some phones) and would then sort against the phone's deliveries wrongly.
  const at = Date.now();
  const next: Reading = {
    latitude: p.coords.latitude,
    longitude: p.coords.longitude,
    occurred_at: new Date(at).toISOString(),
    ...(Number.isFinite(p.coords.accuracy) ? { accuracy: Math.round(p.coords.accuracy) } : {}),
  };
  notePlace({ latitude: next.latitude, longitude: next.longitude });
  if (!worthKeeping(lastKept ?? pending().at(-1) ?? null, next)) return;
  lastKept = next;
  pending().push(next);
  save();
  void flushPositions();
}

const geolocation = () => (typeof navigator !== 'undefined' ? navigator.geolocation : undefined);

function onError(err: GeolocationPositionError): void {
  // Only a refusal is the driver's to know; no fix indoors or a timeout just waits for the next one.
  if (err.code !== err.PERMISSION_DENIED) return;
  locationRefused.set(true);
  // A refused watch is dead; it starts again once the driver allows it (rewatch, onPermission).
  if (watchId != null) geolocation()?.clearWatch(watchId);
  watchId = null;
}

function watch(): void {
  const geo = geolocation();
  if (watchId != null || !geo) return;
  watchId = geo.watchPosition(onFix, onError, { enableHighAccuracy: true, maximumAge: 10_000, timeout: 60_000 });
}

// Signal back: the offline stretch goes now, as one batch.
const onOnline = () => {
  void flushPositions(true);
};

let permission: PermissionStatus | null = null;
// Location allowed in the phone's settings mid-shift: the watch starts again without a reload.
const onPermission = () => {
  if (timer && permission?.state === 'granted') watch();
};
/** A refused watch asks again only once the browser says it is allowed: never a question every few seconds. */
function rewatch(): void {
  if (watchId != null || !locationRefused.get()) return;
  void navigator.permissions?.query({ name: 'geolocation' }).then(
    (p) => {
      if (timer && p.state === 'granted') watch();
    },
    () => undefined,
  );
}

/**
 * On duty the phone watches its position; off duty (the day's parcels done, logged out) it stops
 * and what it kept goes to the outbox.
 */
export function setOnDuty(on: boolean): Promise<void> {
  if (on) {
    if (timer) return Promise.resolve();
    watch();
    timer = setInterval(() => {
      rewatch();
      void flushPositions();
    }, FLUSH_AFTER_MS / 3);
    window.addEventListener('online', onOnline);
    void navigator.permissions?.query({ name: 'geolocation' }).then(
      (p) => {
        permission = p;
        p.addEventListener('change', onPermission);
      },
      () => undefined,
    );
    return flushPositions();
  }
  if (watchId != null) geolocation()?.clearWatch(watchId);
  if (timer) clearInterval(timer);
  window.removeEventListener('online', onOnline);
  permission?.removeEventListener('change', onPermission);
  permission = null;
  watchId = null;
  timer = null;
  sentOne = false;
  lastKept = null;
  return flushPositions(true);
}
