import { load } from '../load';
import type { ScaleOptions } from './plan';
import type { ScaleData } from './seed';

export interface EndpointFigures {
  endpoint: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  /** CPU ms per request of the server process(es), and of the database cluster's processes (PostgreSQL). */
  serverMs: number;
  dbMs: number;
}

type Req = { method?: string; path: string; headers?: Record<string, string>; body?: string };
const DAY = 86_400_000;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);

export const ENDPOINTS = [
  'POST inbound-scan',
  'POST deliver',
  'GET remaining list',
  'GET staff list (status+company+dates+search)',
  'GET sync head poll',
] as const;

/**
 * The five requests whose cost must not grow with the data, each under autocannon with the CPU the
 * server (and PostgreSQL) spent on it divided by the requests answered. Reads run for a duration;
 * writes for a fixed count of parcels of their own (a parcel is scanned or delivered once).
 */
/** CPU meters (bench/load.ts cpuOf): the server's process tree and, on PostgreSQL, the cluster's. */
export interface CpuMeters {
  server: () => number;
  database?: () => number;
}

/** Called around each endpoint's run (bench/scale/statements.ts: PostgreSQL's statements per request). */
export interface RunHooks {
  before(endpoint: string): Promise<void>;
  after(endpoint: string, requests: number): Promise<void>;
}

export async function measureEndpoints(
  url: string,
  data: ScaleData,
  o: ScaleOptions,
  cpu: CpuMeters,
  now = Date.now(),
  hooks?: RunHooks,
): Promise<EndpointFigures[]> {
  const out: EndpointFigures[] = [];
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const run = async (endpoint: string, next: () => Req, limit: { duration?: number; amount?: number }) => {
    await hooks?.before(endpoint);
    const r = await load(endpoint, url, next, {
      connections: o.connections,
      ...limit,
      meters: cpu.database ? { server: cpu.server, database: cpu.database } : { server: cpu.server },
    });
    await hooks?.after(endpoint, r.requests);
    out.push({
      endpoint,
      rps: r.rps,
      p50: r.p50,
      p99: r.p99,
      requests: r.requests,
      non2xx: r.non2xx,
      serverMs: r.cpu?.server ?? 0,
      dbMs: r.cpu?.database ?? 0,
    });
  };
  let i = 0;
  const driver = () => data.drivers[i++ % data.drivers.length]!;
  const remaining = (): Req => {
    const d = driver();
    return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: auth(d.token) };
  };
  // A clerk looking for a parcel: one company's delivered parcels of two days, searched by name.
  const days = Math.max(1, Math.min(7, data.historyDays - 2));
  const staff = (): Req => {
    const k = i++;
    const from = now - (3 + (k % days)) * DAY;
    return {
      path: `/api/package/?status=delivered&company=${1 + (k % data.companies)}&created_from=${day(from)}&created_to=${day(from + DAY)}&search=Receiver%20${1 + (k % 9)}&page_size=50`,
      headers: auth(data.adminToken),
    };
  };
  // Every driver's list once, as a working day's server has read them all (each phone refreshes
  // its list all day): the run then measures the steady state at every size. Without it, a 10M run
  // (10,000 drivers) met most drivers for the first time and measured their parcels' first read
  // from disk, against a 100k run whose 200 drivers the one-second warm-up had read many times over.
  await load('warm-up', url, remaining, { connections: 10, amount: Math.max(1000, data.drivers.length) });
  await load('warm-up', url, staff, { connections: 10, duration: 1 });

  // Before the write runs: they take ten parcels off each writing driver's list, which at 100k is
  // every driver (lists of 90) and at 1M a tenth of them (lists of 99 on average). Measured after
  // them, 100k's list was a smaller request than 1M's and 10M's (and, at 119 KB against 132, under
  // V8's 128 KiB large-object threshold while the answer was one string); before them every list holds 100.
  await run(ENDPOINTS[2], remaining, { duration: o.duration });

  // The same drivers at every size (o.writeDrivers), each taking its turn: scan k of every driver, then k + 1.
  const writers = data.drivers.slice(0, o.writeDrivers);
  const scans = Array.from({ length: o.toScan }, (_, k) => writers.map((d) => ({ token: d.token, barcode: d.toScan[k]! }))).flat();
  const delivers = Array.from({ length: o.onVan }, (_, k) => writers.map((d) => ({ token: d.token, id: d.onVan[k]! }))).flat();
  let s = 0;
  let v = 0;
  await run(
    ENDPOINTS[0],
    () => {
      const sc = scans[s++]!;
      return {
        method: 'POST',
        path: '/api/scan-package-api/inbound-scan/',
        headers: auth(sc.token),
        body: JSON.stringify({ barcode: sc.barcode }),
      };
    },
    { amount: Math.min(o.writes, scans.length) },
  );
  await run(
    ENDPOINTS[1],
    () => {
      const dv = delivers[v++]!;
      return {
        method: 'POST',
        path: `/api/package-delivered/${dv.id}/deliver/`,
        headers: auth(dv.token),
        body: JSON.stringify({ recipient_name: 'Front desk' }),
      };
    },
    { amount: Math.min(o.writes, delivers.length) },
  );
  await run(ENDPOINTS[3], staff, { duration: o.duration });

  // The request a device makes most: a poll at the head of the feed, nothing new since.
  const d0 = data.drivers[0]!;
  let head = data.feedLast;
  for (let more = true; more;) {
    const page = (await (await fetch(`${url}/api/sync/changes/?cursor=${head}&limit=500`, { headers: auth(d0.token) })).json()) as {
      cursor: number;
      has_more: boolean;
    };
    head = page.cursor;
    more = page.has_more;
  }
  await run(
    ENDPOINTS[4],
    () => {
      const d = driver();
      return { path: `/api/sync/changes/?cursor=${head}`, headers: auth(d.token) };
    },
    { duration: o.duration },
  );
  return out;
}
