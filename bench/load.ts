import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** Server CPU per request (user + system), when the server's pid was given: the figure that moves least with a noisy machine. */
  cpuMs?: number;
  /** CPU ms per request of each named meter given to `load` (server processes, database, load generator). */
  cpu?: Record<string, number>;
  /** Wall-clock seconds the run took. */
  seconds?: number;
}

/** CPU seconds a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The process and every descendant (cluster workers), from /proc/<pid>/task/<tid>/children (Linux). */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        for (const child of readFileSync(`/proc/${out[i]}/task/${tid}/children`, 'utf8').trim().split(/\s+/))
          if (child) out.push(Number(child));
      } catch {
        /* the task ended */
      }
    }
  }
  return out;
}

/**
 * CPU seconds the whole machine has spent busy so far, every core and every process (/proc/stat:
 * all but idle and iowait): beside the bench's own processes it shows what the rest of the machine
 * took, and whether any core was left idle.
 */
export function machineCpu(): number {
  let line: string;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  } catch {
    return Number.NaN;
  } // not Linux: no figure
  const [, ...ticks] = line.trim().split(/\s+/).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) / 100;
}

/** CPU seconds used so far by a set of processes (those that ended meanwhile no longer count). */
export function cpuOf(pids: () => number[]): () => number {
  return () => pids().reduce((sum, p) => sum + (cpuSeconds(p) ?? 0), 0);
}

export async function startBenchServer(
  databasePath: string,
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [], {
    env: { ...process.env, ...env, DATABASE_PATH: databasePath, PORT: '0' },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

export async function stopBenchServer(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

type Req = { method?: string; path: string; headers?: Record<string, string>; body?: string };

/** One autocannon run; `next` gives each request, so writes never repeat an already-applied action. */
export async function load(
  name: string,
  url: string,
  next: () => Req,
  opts: {
    connections?: number;
    amount?: number;
    duration?: number;
    rate?: number;
    pid?: number;
    pipelining?: number;
    meters?: Record<string, () => number>;
  } = {},
): Promise<LoadResult> {
  const limit = opts.amount ? { amount: opts.amount } : { duration: opts.duration ?? 5 };
  const cpu0 = cpuSeconds(opts.pid);
  const meters = Object.entries(opts.meters ?? {});
  const m0 = meters.map(([, read]) => read());
  const result = await autocannon({
    url,
    connections: opts.connections ?? 10,
    pipelining: opts.pipelining ?? 1,
    ...limit,
    ...(opts.rate ? { overallRate: opts.rate } : {}),
    requests: [
      {
        setupRequest: (req) => {
          const r = next();
          return { ...req, method: (r.method ?? 'GET') as 'GET', path: r.path, headers: { ...r.headers }, body: r.body };
        },
      },
    ],
  });
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    requests: result.requests.total,
    seconds: result.duration,
    cpuMs: cpu0 !== undefined && result.requests.total ? ((cpuSeconds(opts.pid)! - cpu0) * 1000) / result.requests.total : undefined,
    ...(meters.length && result.requests.total
      ? { cpu: Object.fromEntries(meters.map(([name, read], k) => [name, ((read() - m0[k]!) * 1000) / result.requests.total])) }
      : {}),
  };
}

export interface PairedResult {
  name: string;
  bare: string;
  rounds: number;
  rpsRatio: number;
  cpuRatio: number;
  rps: [number, number];
  cpuMs: [number, number];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * A route beside its bare twin on a shared machine: `rounds` alternating runs of `seconds` each
 * (bare, then real), after both were warmed by earlier runs, so both see the same moments of the other work running here; the ratios
 * are the medians of each round's pair. One run of each after the other measured the machine's
 * mood as much as the routes (paired CPU ratios of one list moved 1.11–1.66 between rounds).
 */
export async function paired(
  name: string,
  bareName: string,
  url: string,
  pid: number | undefined,
  real: () => Req,
  bare: () => Req,
  opts: { rounds?: number; seconds?: number; connections?: number } = {},
): Promise<PairedResult> {
  const rounds = opts.rounds ?? 5;
  // Timed runs: autocannon ends a run of a fixed amount on its next whole second, which skews req/s.
  const each = { connections: opts.connections ?? 10, duration: opts.seconds ?? 2, pid };
  const b: LoadResult[] = [];
  const r: LoadResult[] = [];
  for (let k = 0; k < rounds; k++) {
    b.push(await load(bareName, url, bare, each));
    r.push(await load(name, url, real, each));
  }
  return {
    name,
    bare: bareName,
    rounds,
    rpsRatio: median(r.map((x, k) => x.rps / b[k]!.rps)),
    cpuRatio: median(r.map((x, k) => (x.cpuMs ?? NaN) / (b[k]!.cpuMs ?? NaN))),
    rps: [median(r.map((x) => x.rps)), median(b.map((x) => x.rps))],
    cpuMs: [median(r.map((x) => x.cpuMs ?? NaN)), median(b.map((x) => x.cpuMs ?? NaN))],
  };
}

export function printPaired(p: PairedResult): void {
  console.log(
    `${p.name} / ${p.bare}, ${p.rounds} alternating rounds: ${p.rpsRatio.toFixed(2)}x req/s (median ${p.rps[0]} vs ${p.rps[1]}), ` +
      `${p.cpuRatio.toFixed(2)}x CPU per request (median ${p.cpuMs[0].toFixed(2)} vs ${p.cpuMs[1].toFixed(2)} ms)`,
  );
}

export function printTable(rows: LoadResult[], bareName: string): void {
  const bare = rows.find((r) => r.name === bareName)?.rps ?? 0;
  console.log('| endpoint | req/s | p50 ms | p90 ms | p99 ms | max ms | server CPU ms/req | non-2xx | vs bare |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.cpuMs?.toFixed(2) ?? '-'} | ${r.non2xx} | ${bare ? (r.rps / bare).toFixed(2) : '-'} |`,
    );
  }
}

/**
 * Open-loop load at a steady rate: request k is due at start + k/rate and its latency counts from
 * then, so a slow answer cannot hide the ones queued behind it. (autocannon's own rate limit sends
 * each second's quota in one burst, which measures the burst, not the server.) At most
 * `connections` requests are in flight, on keep-alive sockets.
 */
export async function paced(
  name: string,
  url: string,
  next: () => Req,
  opts: { rate: number; duration: number; connections: number; pid?: number },
): Promise<LoadResult> {
  const { Agent, request } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections });
  const total = Math.max(1, Math.round(opts.rate * opts.duration));
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const send = (r: Req) =>
    new Promise<number>((resolve) => {
      const req = request(`${url}${r.path}`, { method: r.method ?? 'GET', headers: r.headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end(r.body);
    });
  const cpu0 = cpuSeconds(opts.pid);
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let k = 0; k < total; k++) {
    const due = start + (k * 1000) / opts.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(
      send(next()).then((status) => {
        latencies.push(performance.now() - due);
        if (status === 0) errors += 1;
        else if (status < 200 || status >= 300) non2xx += 1;
      }),
    );
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
  return {
    name,
    rps: Math.round(total / seconds),
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: at(1),
    non2xx,
    errors,
    requests: total,
    cpuMs: cpu0 !== undefined ? ((cpuSeconds(opts.pid)! - cpu0) * 1000) / total : undefined,
  };
}
