import { expect } from 'vitest';
import { createSyncEngine, type SyncEngine, type SyncEngineOptions } from '../../client/sync/index';
import type { TestApp } from '../helpers/app';

let dbCount = 0;
export const uniqueDbName = (prefix = 'courier-test') => `${prefix}-${process.pid}-${++dbCount}`;

/** Requests the engine made, with a switch that turns the network off. */
export interface Network {
  online: boolean;
  sent: { method: string; path: string; key: string | null; status: number; replayed: boolean }[];
  fetch: NonNullable<SyncEngineOptions['fetch']>;
}

/** The engine's fetch wired to the in-process app: a real server on a real database, without a port. */
export function network(t: TestApp): Network {
  const net: Network = {
    online: true,
    sent: [],
    fetch: async (url, init) => {
      if (!net.online) throw new TypeError('fetch failed: network is down');
      const res = await t.app.request(url, init);
      const headers = new Headers(init?.headers);
      net.sent.push({
        method: init?.method ?? 'GET',
        path: new URL(url).pathname,
        key: headers.get('idempotency-key'),
        status: res.status,
        replayed: res.headers.get('idempotent-replayed') === 'true',
      });
      return res;
    },
  };
  return net;
}

export function engineOn(net: Network, dbName: string, extra: Partial<SyncEngineOptions> = {}): SyncEngine {
  return createSyncEngine({
    baseUrl: 'http://courier.test/api/',
    fetch: net.fetch,
    dbName,
    lock: 'lease',
    backoff: { baseMs: 5, maxMs: 40 },
    ...extra,
  });
}

/** Admin creates parcels for one company and assigns them to the driver; answers their ids in order. */
export async function seedAssigned(t: TestApp, adminToken: string, driverId: number, hawbs: string[]): Promise<number[]> {
  const company = await t.company();
  const ids: number[] = [];
  for (const hawb of hawbs) {
    const res = await t.json<{ id: number }>('POST', '/api/package/', adminToken, { hawb, company, customer_name: `Receiver ${hawb}` });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  const assigned = await t.json('POST', '/api/assign-package/assign-driver/', adminToken, { driver: driverId, packages: ids });
  expect(assigned.status).toBe(200);
  return ids;
}

/** Calls syncNow until the condition holds (each pass ends on its own; nothing asserts on time). */
export async function syncUntil(engines: SyncEngine[], done: () => Promise<boolean>, maxPasses = 5000): Promise<void> {
  for (let i = 0; i < maxPasses; i++) {
    if (await done()) return;
    await Promise.all(engines.map((e) => e.syncNow()));
    // A tab that found the outbox locked returns at once; let the holder work instead of spinning.
    await new Promise((ok) => setTimeout(ok, 5));
  }
  throw new Error('sync did not settle');
}
