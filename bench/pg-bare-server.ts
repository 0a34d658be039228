import cluster from 'node:cluster';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import pg from 'pg';
import { hashToken } from '../server/services/auth/tokens';

/**
 * The inbound scan's SQL with nothing of the app around it, on PostgreSQL, served by WORKERS Hono
 * processes sharing a port (Node's cluster module, as server/main.ts does) with a pg pool of
 * DATABASE_POOL_SIZE each. Per request the same round trips, in the same transaction shape, as the
 * real scan does (read from pg_stat_statements during bench/scale.ts): the token's lookup, then one
 * serializable transaction that finds the parcel, moves it, writes its event, takes the feed lock,
 * appends the feed row, reads and creates the recipient's row, queues the recipient's SMS, reads the
 * company's settings, webhooks and stop ETA, and reads the parcel's stored answer back.
 * bench/postgres.ts runs it at 1 and 2 processes beside the real server: if this too gains little
 * from a second process, the ceiling is the machine, not the app.
 */
const env = process.env;
const workers = Number(env.WORKERS ?? 1);
const FEED_LOCK = 0x66656564; // server/db/engine/dialect.ts: the lock every feed writer takes

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i += 1) cluster.fork();
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  });
} else {
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: Number(env.DATABASE_POOL_SIZE ?? 10) });
  const app = new Hono();
  /** One attempt: the answer's JSON, null when the parcel is unknown. */
  const scanOnce = async (userId: string, barcode: string, now: number, feedLock: boolean): Promise<string | null> => {
    const client = await pool.connect();
    try {
      await client.query('begin isolation level serializable');
      const parcel = (
        await client.query<{ id: string; status: string; company_id: string; customer_phone: string | null }>(
          'select id, status, company_id, customer_phone from package where hawb = $1 and deleted_at is null',
          [barcode],
        )
      ).rows[0];
      if (!parcel) {
        await client.query('rollback');
        return null;
      }
      await client.query(`update package set is_scanned = 1, status = 'out_for_delivery', updated_at = $1 where id = $2 returning *`, [
        now,
        parcel.id,
      ]);
      await client.query(
        `insert into package_event (package_id, action, from_status, to_status, actor_id, occurred_at, received_at)
        values ($1, 'inbound_scan', $2, 'out_for_delivery', $3, $4, $4)`,
        [parcel.id, parcel.status, userId, now],
      );
      if (feedLock) await client.query(`select pg_advisory_xact_lock(${FEED_LOCK})`);
      await client.query(
        `insert into change_log (entity, entity_id, op, driver_id, company_id, created_at) values ('package', $1, 'upsert', $2, $3, $4)`,
        [parcel.id, userId, parcel.company_id, now],
      );
      await client.query(
        'select r.company_id, r.events, r.channels, c.name from company c left join recipient_settings r on r.company_id = c.id where c.id = $1',
        [parcel.company_id],
      );
      await client.query('select * from package_recipient where package_id = $1', [parcel.id]);
      await client.query(
        `insert into package_recipient (package_id, token, created_at, updated_at) values ($1, $2, $3, $3) on conflict do nothing`,
        [parcel.id, `bare-${parcel.id}`, now],
      );
      if (parcel.customer_phone) {
        await client.query(
          `insert into message_outbox (channel, "to", kind, data, company_id, package_id, dedupe_key, next_attempt_at, created_at, updated_at)
          values ('sms', $1, 'out_for_delivery', '{}', $2, $3, $4, $5, $5, $5) on conflict do nothing`,
          [parcel.customer_phone, parcel.company_id, parcel.id, `bare:${parcel.id}`, now],
        );
      }
      await client.query('select id, events from webhook_endpoint where company_id = $1 and is_active = 1', [parcel.company_id]);
      await client.query('select * from stop_eta where package_id = $1', [parcel.id]);
      const answer = (await client.query<{ json: string }>('select json from package_answer where package_id = $1', [parcel.id])).rows[0];
      await client.query('commit');
      return answer?.json ?? 'null';
    } catch (e) {
      await client.query('rollback').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  };
  // ?feed_lock=0 leaves out the lock that keeps the change feed in order (never right for a server:
  // it only measures what that lock costs two processes).
  app.post('/bare/scan', async (c) => {
    const token = (c.req.header('authorization') ?? '').replace(/^Bearer /, '');
    const { barcode } = await c.req.json<{ barcode: string }>();
    const now = Date.now();
    const user = (
      await pool.query<{ user_id: string }>(
        `select t.id as token_id, u.id as user_id, u.name, u.role, u.company_id from auth_token t join "user" u on u.id = t.user_id
        where t.token_hash = $1 and t.expires_at > $2`,
        [hashToken(token), now],
      )
    ).rows[0];
    if (!user) return c.json({ message: 'unauthorised' }, 401);
    // Retried on a serialization failure or deadlock as the real engine does (server/db/engine/postgres.ts).
    for (let attempt = 1; ; attempt += 1) {
      try {
        const json = await scanOnce(user.user_id, barcode, now, c.req.query('feed_lock') !== '0');
        if (json === null) return c.json({ message: 'not found' }, 404);
        return c.body(`{"success":true,"package":${json}}`, 200, { 'content-type': 'application/json' });
      } catch (e) {
        const code = (e as { code?: string }).code;
        if ((code !== '40001' && code !== '40P01') || attempt >= 8) return c.json({ message: String(e) }, 503);
        await new Promise((ok) => setTimeout(ok, Math.random() * Math.min(200, 5 * 2 ** attempt)));
      }
    }
  });
  const server = serve({ fetch: app.fetch, port: Number(env.PORT ?? 0), hostname: env.HOST ?? '127.0.0.1' }, (info) => {
    console.log(`bare scan listening on ${info.port}`);
  });
  process.on('SIGTERM', () =>
    server.close(() => {
      void pool.end().finally(() => process.exit(0));
    }),
  );
}
