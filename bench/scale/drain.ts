import { and, count, eq, inArray, like } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { device, idempotencyKey, packageEvent, pkg } from '../../server/db/schema/index';
import type { ScaleDriver } from './seed';

/**
 * Devices at once, each replaying its outbox in order like client/sync does (one request at a time),
 * with Idempotency-Key, X-Device-Id and X-Device-Seq. A third of the actions are sent twice: half of
 * those as a retry racing the first copy (a timeout fired), half after the answer was lost.
 */
export async function drainDevices(url: string, drivers: ScaleDriver[]): Promise<{ ms: number; requests: number; failures: string[] }> {
  let requests = 0;
  const failures: string[] = [];
  const send = async (token: string, dev: string, seq: number, key: string, path: string, body: unknown): Promise<number> => {
    requests += 1;
    try {
      const res = await fetch(`${url}/api/${path}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
          'x-device-id': dev,
          'x-device-seq': String(seq),
        },
      });
      await res.arrayBuffer();
      return res.status;
    } catch {
      // A reset connection (keep-alive race under load) is a network error: the outbox retries it.
      return 0;
    }
  };
  const t0 = performance.now();
  await Promise.all(
    drivers.map(async (d, di) => {
      const dev = `scale-dev-${di}`;
      const actions: { path: string; body: unknown }[] = [
        ...d.drain.map((p) => ({
          path: 'scan-package-api/inbound-scan/',
          body: { barcode: p.hawb, occurred_at: new Date().toISOString() },
        })),
        ...d.drain.map((p) => ({
          path: `package-delivered/${p.id}/deliver/`,
          body: { recipient_name: 'Front desk', occurred_at: new Date().toISOString() },
        })),
      ];
      for (let i = 0; i < actions.length; i++) {
        const a = actions[i]!;
        const seq = i + 1;
        const key = `scale-${di}-${seq}-${process.pid}`;
        for (;;) {
          const twice = (di + i) % 3 === 0;
          const racing = twice && (di + i) % 2 === 0;
          const statuses = racing
            ? await Promise.all([send(d.token, dev, seq, key, a.path, a.body), send(d.token, dev, seq, key, a.path, a.body)])
            : [await send(d.token, dev, seq, key, a.path, a.body)];
          if (twice && !racing) statuses.push(await send(d.token, dev, seq, key, a.path, a.body));
          // A busy server is retried, as the outbox does; anything else must be a success.
          if (statuses.some((s) => s === 0 || s === 429 || s >= 500)) {
            await new Promise((r) => setTimeout(r, 50));
            continue;
          }
          if (statuses.some((s) => s >= 300)) failures.push(`${dev} #${seq} ${a.path}: ${statuses.join(',')}`);
          break;
        }
      }
    }),
  );
  return { ms: performance.now() - t0, requests, failures };
}

/** What the drain left behind, read through the server's own data layer after the server stopped. */
export async function checkDrain(db: Db, drivers: ScaleDriver[]): Promise<string> {
  const ids = drivers.flatMap((d) => d.drain.map((p) => p.id));
  let delivered = 0;
  let scanEvents = 0;
  let deliverEvents = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    delivered +=
      (
        await db
          .select({ n: count() })
          .from(pkg)
          .where(and(eq(pkg.status, 'delivered'), inArray(pkg.id, part)))
          .get()
      )?.n ?? 0;
    const events = async (action: string) =>
      (
        await db
          .select({ n: count() })
          .from(packageEvent)
          .where(and(eq(packageEvent.action, action), inArray(packageEvent.package_id, part)))
          .get()
      )?.n ?? 0;
    scanEvents += await events('inbound_scan');
    deliverEvents += await events('deliver');
  }
  const keys = (await db.select({ n: count() }).from(idempotencyKey).where(like(idempotencyKey.device_id, 'scale-dev-%')).get())?.n ?? 0;
  const perDevice = (drivers[0]?.drain.length ?? 0) * 2;
  const atLast =
    (
      await db
        .select({ n: count() })
        .from(device)
        .where(and(like(device.device_id, 'scale-dev-%'), eq(device.last_seq, perDevice)))
        .get()
    )?.n ?? 0;
  const ok =
    delivered === ids.length &&
    scanEvents === ids.length &&
    deliverEvents === ids.length &&
    keys === ids.length * 2 &&
    atLast === drivers.length;
  return (
    `${ok ? 'exactly once' : 'MISMATCH'}: delivered ${delivered}/${ids.length}, inbound_scan events ${scanEvents}, deliver events ${deliverEvents}, ` +
    `stored keys ${keys} (expect ${ids.length * 2}), devices at last seq ${atLast}/${drivers.length}`
  );
}
