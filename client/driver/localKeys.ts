/**
 * Keys the driver app keeps in localStorage next to the engine's IndexedDB; wiped with it at logout.
 * Apart from the engine so the first screen can read `used` without loading the sync engine.
 */
export const LOCAL_KEYS = {
  routes: 'courier.driver.routes',
  etas: 'courier.driver.etas',
  order: 'courier.driver.order',
  maxAttempts: 'courier.driver.maxAttempts',
  used: 'courier.driver',
  positions: 'courier.driver.positions',
  locationNote: 'courier.driver.locationNote',
  pickupPoint: 'courier.driver.pickupPoint',
} as const;

/** This phone has had a driver's day on it (set at login, removed by the wipe at logout). */
export function dayOnPhone(): boolean {
  try {
    return localStorage.getItem(LOCAL_KEYS.used) === '1';
  } catch {
    return false;
  }
}

/** The engine's IndexedDB database (client/sync/db.ts), named here so a warm start can read it before the engine loads. */
export const DB_NAME = 'courier';
