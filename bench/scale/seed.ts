import { hashPasswordSync } from '../../server/services/auth/passwords';
import { newToken } from '../../server/services/auth/tokens';
import { perDriver, type ScaleOptions } from './plan';

/**
 * Seeding at 10 million parcels: the rows are generated inside the database by one INSERT … SELECT
 * per million over a run of numbers (SQLite: a recursive CTE; PostgreSQL: generate_series), with
 * the indexes dropped during the load and built once afterwards. The same SQL serves both engines;
 * only the run of numbers and the index catalogue differ (the connections in seed-sqlite.ts and
 * seed-postgres.ts). Going through the API or drizzle row by row would take hours at 10M.
 *
 * What is made, per driver: `history` delivered parcels of past weeks (`perDay` a day, three events
 * and three change-feed rows each: assign, inbound scan, deliver), then the active parcels: `toScan`
 * and `toDrain` assigned (one event and feed row), `onVan` out for delivery (two). Companies, zones
 * and an admin; every driver with a mobile token. A driver's k-th parcel comes from company
 * (driver + k) mod companies: each driver's day spans many shippers, and every company's day holds
 * drivers x perDay / companies parcels (200 at every size), spread over the file as a real day's are.
 * (It was n mod companies, which at 10M, where a driver's 1,000 parcels and the 1,000 companies
 * line up, put each company's parcels on one day: 10,000 of them, and none on the others.)
 */
export interface SeedConnection {
  kind: 'sqlite' | 'postgres';
  exec(sql: string): Promise<void>;
  value(sql: string): Promise<number>;
  /** `select n from …` for n in lo..hi inclusive. */
  numbers(lo: number, hi: number): string;
  /** The secondary indexes of these tables, to drop before the load and build after it. */
  indexes(tables: string[]): Promise<{ drop: string; create: string }[]>;
  /** After explicit ids: move id generators past them (PostgreSQL's identity sequences). */
  afterLoad(tables: string[]): Promise<void>;
}

export interface ScaleDriver {
  id: number;
  token: string;
  toScan: string[];
  drain: { id: number; hawb: string }[];
  onVan: number[];
}
export interface ScaleData {
  adminToken: string;
  companies: number;
  zoneIds: number[];
  drivers: ScaleDriver[];
  packages: number;
  feedLast: number;
  /** Days the delivered history spans. */
  historyDays: number;
  seedMs: number;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const CHUNK = 1_000_000;
const BIG_TABLES = ['package', 'package_event', 'change_log', 'package_recipient', 'delivery_record'];
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

async function insertValues(c: SeedConnection, table: string, columns: string[], rows: (string | number)[][]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const values = rows
      .slice(i, i + 1000)
      .map((r) => `(${r.map((v) => (typeof v === 'number' ? String(v) : lit(v))).join(', ')})`)
      .join(',\n');
    await c.exec(`insert into "${table}" (${columns.map((x) => `"${x}"`).join(', ')}) values ${values}`);
  }
}

export async function seedScale(
  c: SeedConnection,
  o: ScaleOptions,
  now = Date.now(),
  log: (line: string) => void = () => {},
): Promise<ScaleData> {
  const t0 = performance.now();
  const { history: H, total: P } = perDriver(o);
  const S = o.toScan;
  const R = o.toDrain;
  const count = P * o.drivers;
  const hash = hashPasswordSync('bench-password', 1024);

  await insertValues(
    c,
    'company',
    ['id', 'name', 'code', 'email', 'created_at', 'updated_at'],
    Array.from({ length: o.companies }, (_, i) => [i + 1, `Company ${i}`, `CO${i}`, `co${i}@bench.test`, now, now]),
  );
  await insertValues(
    c,
    'zone',
    ['id', 'name', 'created_at', 'updated_at'],
    Array.from({ length: o.zones }, (_, i) => [i + 1, `Zone ${i}`, now, now]),
  );
  const adminId = 1;
  const firstDriver = 2;
  await c.exec(`insert into "user" ("id", "name", "email", "role", "password_hash", "created_at", "updated_at")
    values (${adminId}, 'Bench Admin', 'admin@bench.test', 'super_admin', ${lit(hash)}, ${now}, ${now})`);
  await c.exec(`insert into "user" ("id", "name", "email", "role", "password_hash", "created_at", "updated_at")
    select ${firstDriver} + n, 'Driver ' || n, 'driver' || n || '@bench.test', 'driver', ${lit(hash)}, ${now}, ${now} from ${c.numbers(0, o.drivers - 1)} s`);
  const admin = newToken();
  const tokens = Array.from({ length: o.drivers }, () => newToken());
  await insertValues(
    c,
    'auth_token',
    ['id', 'user_id', 'token_hash', 'kind', 'expires_at', 'created_at'],
    [[1, adminId, admin.hash, 'web', now + DAY, now], ...tokens.map((t, d) => [d + 2, firstDriver + d, t.hash, 'mobile', now + DAY, now])],
  );

  const dropped = await c.indexes(BIG_TABLES);
  for (const ix of dropped) await c.exec(ix.drop);

  // n runs over every parcel: driver n / P, its k-th parcel k = n % P; ids are n + 1.
  const k = `(n % ${P})`;
  const kind = `case when ${k} < ${H} then 0 when ${k} < ${H + S} then 1 when ${k} < ${H + S + R} then 2 else 3 end`;
  const created = `case when ${k} < ${H} then ${now} - (2 + ${k} / ${o.perDay}) * ${DAY} + (${k} % ${o.perDay}) * 600000 else ${now - HOUR} end`;
  for (let lo = 0; lo < count; lo += CHUNK) {
    const hi = Math.min(count, lo + CHUNK) - 1;
    await c.exec(`insert into "package" ("id", "hawb", "company_id", "zone_id", "status", "assigned_to_id", "customer_name", "customer_address",
        "customer_phone", "postcode", "weight", "latitude", "longitude", "sequence_no", "landed", "is_scanned", "delivered_at", "created_at", "updated_at")
      select id, prefix || id, 1 + (n / ${P} + k) % ${o.companies}, 1 + (n / ${P}) % ${o.zones},
        case kind when 0 then 'delivered' when 3 then 'out_for_delivery' else 'assigned' end, ${firstDriver} + n / ${P},
        'Receiver ' || n, n || ' Bench Street', '0400' || n, 2000 + n % 100, 1 + n % 7, -33.8 + (n % 100) / 1000.0, 151.1 + (n % 100) / 1000.0,
        k + 1, 1, case when kind in (0, 3) then 1 else 0 end, case when kind = 0 then created + ${6 * HOUR} end, created,
        case when kind = 0 then created + ${6 * HOUR} else created end
      from (select n, n + 1 as id, ${k} as k, ${kind} as kind, ${created} as created,
              case ${kind} when 0 then 'BH' when 1 then 'BS' when 2 then 'BD' else 'BV' end as prefix
            from ${c.numbers(lo, hi)} s) g`);
    log(`  package rows ${hi + 1}/${count}`);
  }
  // Events and feed rows: 3 per delivered parcel, 2 on the van, 1 assigned; in id order, chunk by chunk.
  const steps = '(select 0 as x union all select 1 union all select 2) j';
  const stepsOf = `case p."status" when 'delivered' then 3 when 'out_for_delivery' then 2 else 1 end`;
  const at = `p."created_at" + j.x * ${3 * HOUR}`;
  for (let lo = 1; lo <= count; lo += CHUNK) {
    const range = `p."id" between ${lo} and ${Math.min(count, lo + CHUNK - 1)} and j.x < ${stepsOf}`;
    await c.exec(`insert into "package_event" ("package_id", "action", "from_status", "to_status", "actor_id", "occurred_at", "received_at")
      select p."id", case j.x when 0 then 'assign' when 1 then 'inbound_scan' else 'deliver' end,
        case j.x when 0 then 'created' when 1 then 'assigned' else 'out_for_delivery' end,
        case j.x when 0 then 'assigned' when 1 then 'out_for_delivery' else 'delivered' end,
        case j.x when 0 then ${adminId} else p."assigned_to_id" end, ${at}, ${at}
      from "package" p, ${steps} where ${range} order by p."id", j.x`);
    // Each row's seq given, in order after the last: on PostgreSQL a seq left to the table is a pending
    // one, placed when the feed is next read (server/db/engine/feedPlacement.ts), 10M rows at once.
    await c.exec(`insert into "change_log" ("seq", "entity", "entity_id", "op", "driver_id", "company_id", "created_at")
      select (select coalesce(max("seq"), 0) from "change_log" where "seq" > 0) + row_number() over (order by p."id", j.x),
        'package', p."id", 'upsert', p."assigned_to_id", p."company_id", ${at}
      from "package" p, ${steps} where ${range} order by p."id", j.x`);
    // The tracking link's row, made at the inbound scan: every parcel that was scanned has one.
    await c.exec(`insert into "package_recipient" ("package_id", "token", "created_at", "updated_at")
      select p."id", 'bench-' || p."id", p."created_at", p."created_at" from "package" p
      where p."id" between ${lo} and ${Math.min(count, lo + CHUNK - 1)} and p."status" in ('delivered', 'out_for_delivery')`);
    await c.exec(`insert into "delivery_record" ("package_id", "driver_id", "recipient_name", "occurred_at", "received_at", "latitude", "longitude", "updated_at")
      select p."id", p."assigned_to_id", 'Front desk', p."delivered_at", p."delivered_at", p."latitude", p."longitude", p."delivered_at" from "package" p
      where p."id" between ${lo} and ${Math.min(count, lo + CHUNK - 1)} and p."status" = 'delivered'`);
    log(`  events, feed, recipient and delivery rows for packages up to ${Math.min(count, lo + CHUNK - 1)}`);
  }
  const tIndex = performance.now();
  for (const ix of dropped) await c.exec(ix.create);
  log(`  ${dropped.length} indexes built in ${Math.round(performance.now() - tIndex)} ms`);
  await c.afterLoad(['company', 'zone', 'user', 'auth_token', 'package', 'package_event', 'change_log', 'delivery_record']);

  const drivers: ScaleDriver[] = tokens.map((t, d) => {
    const base = d * P + H + 1; // id of the driver's first active parcel
    return {
      id: firstDriver + d,
      token: t.token,
      toScan: Array.from({ length: S }, (_, i) => `BS${base + i}`),
      drain: Array.from({ length: R }, (_, i) => ({ id: base + S + i, hawb: `BD${base + S + i}` })),
      onVan: Array.from({ length: o.onVan }, (_, i) => base + S + R + i),
    };
  });
  return {
    adminToken: admin.token,
    companies: o.companies,
    zoneIds: Array.from({ length: o.zones }, (_, i) => i + 1),
    drivers,
    packages: count,
    feedLast: await c.value('select max("seq") from "change_log"'),
    historyDays: Math.ceil(H / o.perDay),
    seedMs: Math.round(performance.now() - t0),
  };
}
