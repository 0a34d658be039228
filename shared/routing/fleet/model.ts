import type { FleetInput } from './types';

/**
 * The input flattened into typed arrays indexed by job / vehicle position, so the search's inner
 * loops touch no objects. Windows are sorted and merged; a job without windows gets one unbounded
 * window, so every feasibility test is the same code.
 */
export interface FleetModel {
  /** Locations. */
  n: number;
  /** Row-major travel times. */
  d: Float64Array;
  /**
   * Transposed travel times (the same array when the matrix is symmetric): insertion tests read
   * `to u` and `from u` both along row u, which stays in cache; a column walk over a
   * 1,000-location matrix misses on every read.
   */
  dT: Float64Array;
  /** Jobs. */
  J: number;
  jobIds: number[];
  loc: Int32Array;
  service: Float64Array;
  /** Demand dimensions. */
  D: number;
  /** J * D. */
  demand: Float64Array;
  /** Windows of job j are wLo/wHi[wOff[j] .. wOff[j+1]). */
  wOff: Int32Array;
  wLo: Float64Array;
  wHi: Float64Array;
  /** Vehicles. */
  V: number;
  vehicleIds: number[];
  vStart: Int32Array;
  /** -1: open route. */
  vEnd: Int32Array;
  /** V * D; Infinity where unlimited. */
  cap: Float64Array;
  shiftStart: Float64Array;
  shiftEnd: Float64Array;
  /** Vehicles with the same start, end, shift, capacity and rules share a type: one empty one is tried per type. */
  vType: Int32Array;
  /**
   * Issue 32. `rich`: some vehicle has costs, breaks, a maximum duration, or the plan balances or
   * has a distance matrix: routes are then costed and checked by the full evaluator
   * (evaluate.ts); otherwise the O(1) travel-only tests of route.ts decide alone (the benchmarks).
   */
  rich: boolean;
  /** Distance for per-distance costs (the travel times when none was given). */
  dist: Float64Array;
  vFixed: Float64Array;
  vPerTime: Float64Array;
  vPerDist: Float64Array;
  vMaxDuration: Float64Array;
  /** Infinity when unlimited. */
  vMaxStops: Float64Array;
  /** Skill bit sets (names in `skillNames`). */
  vSkills: Uint32Array;
  jSkills: Uint32Array;
  skillNames: string[];
  /** Infinity: must be served first. */
  penalty: Float64Array;
  /** Breaks of vehicle v are bLo/bHi/bDur[bOff[v] .. bOff[v+1]), sorted by window start. */
  bOff: Int32Array;
  bLo: Float64Array;
  bHi: Float64Array;
  bDur: Float64Array;
  /** 0: no balance; 1: by duration; 2: by stops. */
  balanceBy: number;
  balanceWeight: number;
  /**
   * Pickup-and-delivery pairs (issue 32). `role[j]`: 0 unpaired (loaded at the start, dropped at
   * j), 1 a pair's pickup, 2 its delivery; `partner[j]` the other job of the pair, -1 unpaired. A
   * delivery's demand is its pickup's. Without pairs (`hasPairs` false) every hot path is the
   * unpaired one.
   */
  hasPairs: boolean;
  role: Uint8Array;
  partner: Int32Array;
  /** Work done by full route evaluations (route stops walked), added to the search's work clock. */
  counter: { work: number };
}

/** At most this many distinct skills (one bit each). */
export const MAX_SKILLS = 32;

/** Comparisons of times and loads allow this much rounding (Solomon times are unrounded Euclidean). */
export const EPS = 1e-6;

function fail(msg: string): never {
  throw new RangeError(`optimizeFleet: ${msg}`);
}

function isIndex(v: unknown, n: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < n;
}

function finiteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

export function buildModel(input: FleetInput): FleetModel {
  const { matrix, vehicles, jobs } = input;
  if (!Array.isArray(matrix)) fail('matrix must be an array of rows');
  const n = matrix.length;
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const row = matrix[i];
    if (!Array.isArray(row) || row.length !== n) fail(`matrix row ${i} must have ${n} entries`);
    for (let j = 0; j < n; j++) {
      const v = row[j];
      if (!finiteNumber(v) || v < 0) fail(`matrix[${i}][${j}] must be a finite non-negative number`);
      d[i * n + j] = v;
    }
  }
  let symmetric = true;
  for (let i = 0; i < n && symmetric; i++)
    for (let j = 0; j < i; j++)
      if (d[i * n + j] !== d[j * n + i]) {
        symmetric = false;
        break;
      }
  let dT = d;
  if (!symmetric) {
    dT = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) dT[j * n + i] = d[i * n + j];
  }
  if (!Array.isArray(vehicles) || !Array.isArray(jobs)) fail('vehicles and jobs must be arrays');

  const skillIndex = new Map<string, number>();
  const skillMask = (owner: string, skills: unknown): number => {
    if (skills === undefined) return 0;
    if (!Array.isArray(skills)) fail(`${owner}: skills must be an array of strings`);
    let mask = 0;
    for (const sk of skills) {
      if (typeof sk !== 'string' || sk.length === 0) fail(`${owner}: skills must be non-empty strings`);
      let b = skillIndex.get(sk);
      if (b === undefined) {
        b = skillIndex.size;
        if (b >= MAX_SKILLS) fail(`at most ${MAX_SKILLS} distinct skills`);
        skillIndex.set(sk, b);
      }
      mask |= 1 << b;
    }
    return mask >>> 0;
  };
  let dist = d;
  if (input.distance !== undefined) {
    if (!Array.isArray(input.distance) || input.distance.length !== n) fail(`distance must have ${n} rows`);
    dist = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      const row = input.distance[i];
      if (!Array.isArray(row) || row.length !== n) fail(`distance row ${i} must have ${n} entries`);
      for (let j = 0; j < n; j++) {
        const v = row[j];
        if (!finiteNumber(v) || v < 0) fail(`distance[${i}][${j}] must be a finite non-negative number`);
        dist[i * n + j] = v;
      }
    }
  }
  let rich = input.distance !== undefined;
  let balanceBy = 0;
  let balanceWeight = 0;
  if (input.balance !== undefined) {
    const b = input.balance;
    if (b.by !== 'duration' && b.by !== 'stops') fail("balance.by must be 'duration' or 'stops'");
    if (!finiteNumber(b.weight) || b.weight < 0) fail('balance.weight must be a non-negative number');
    if (b.weight > 0) {
      balanceBy = b.by === 'duration' ? 1 : 2;
      balanceWeight = b.weight;
      rich = true;
    }
  }

  let D = 0;
  for (const j of jobs) D = Math.max(D, j.demand?.length ?? 0);
  for (const v of vehicles) D = Math.max(D, v.capacity?.length ?? 0);

  const J = jobs.length;
  const jobIds: number[] = [];
  const seenJobs = new Set<number>();
  const loc = new Int32Array(J);
  const service = new Float64Array(J);
  const demand = new Float64Array(J * D);
  const jSkills = new Uint32Array(J);
  const penalty = new Float64Array(J).fill(Infinity);
  const wOff = new Int32Array(J + 1);
  const lo: number[] = [];
  const hi: number[] = [];
  jobs.forEach((job, j) => {
    if (!Number.isInteger(job.id)) fail(`job ${j}: id must be an integer`);
    if (seenJobs.has(job.id)) fail(`job id ${job.id} appears twice`);
    seenJobs.add(job.id);
    jobIds.push(job.id);
    if (!isIndex(job.location, n)) fail(`job ${job.id}: location must be a matrix index`);
    loc[j] = job.location;
    const s = job.service ?? 0;
    if (!finiteNumber(s) || s < 0) fail(`job ${job.id}: service must be a non-negative number`);
    service[j] = s;
    jSkills[j] = skillMask(`job ${job.id}`, job.skills);
    if (job.penalty !== undefined) {
      if (!finiteNumber(job.penalty) || job.penalty < 0) fail(`job ${job.id}: penalty must be a non-negative number`);
      penalty[j] = job.penalty;
    }
    (job.demand ?? []).forEach((q, k) => {
      if (!finiteNumber(q) || q < 0) fail(`job ${job.id}: demand must be non-negative numbers`);
      demand[j * D + k] = q;
    });
    wOff[j] = lo.length;
    const ws = job.windows ?? [];
    if (ws.length === 0) {
      lo.push(-Infinity);
      hi.push(Infinity);
    } else {
      const sorted = ws
        .map((w, k) => {
          if (!Array.isArray(w) || w.length !== 2 || !finiteNumber(w[0]) || !finiteNumber(w[1]) || w[0] > w[1]) {
            fail(`job ${job.id}: window ${k} must be [start, end] with start <= end`);
          }
          return [w[0], w[1]] as const;
        })
        .sort((a, b) => a[0] - b[0]);
      for (const [a, b] of sorted) {
        const last = lo.length - 1;
        if (last >= wOff[j] && a <= hi[last]) hi[last] = Math.max(hi[last], b);
        else {
          lo.push(a);
          hi.push(b);
        }
      }
    }
  });
  wOff[J] = lo.length;

  const V = vehicles.length;
  const vehicleIds: number[] = [];
  const seenVehicles = new Set<number>();
  const vStart = new Int32Array(V);
  const vEnd = new Int32Array(V);
  const cap = new Float64Array(V * D).fill(Infinity);
  const shiftStart = new Float64Array(V);
  const shiftEnd = new Float64Array(V);
  const vType = new Int32Array(V);
  const types = new Map<string, number>();
  const vFixed = new Float64Array(V);
  const vPerTime = new Float64Array(V);
  const vPerDist = new Float64Array(V).fill(1);
  const vMaxDuration = new Float64Array(V).fill(Infinity);
  const vMaxStops = new Float64Array(V).fill(Infinity);
  const vSkills = new Uint32Array(V);
  const bOff = new Int32Array(V + 1);
  const bLo: number[] = [];
  const bHi: number[] = [];
  const bDur: number[] = [];
  vehicles.forEach((v, k) => {
    if (!Number.isInteger(v.id)) fail(`vehicle ${k}: id must be an integer`);
    if (seenVehicles.has(v.id)) fail(`vehicle id ${v.id} appears twice`);
    seenVehicles.add(v.id);
    vehicleIds.push(v.id);
    if (!isIndex(v.start, n)) fail(`vehicle ${v.id}: start must be a matrix index`);
    vStart[k] = v.start;
    if (v.end !== undefined && !isIndex(v.end, n)) fail(`vehicle ${v.id}: end must be a matrix index`);
    vEnd[k] = v.end ?? -1;
    (v.capacity ?? []).forEach((q, dim) => {
      if (!finiteNumber(q) || q < 0) fail(`vehicle ${v.id}: capacity must be non-negative numbers`);
      cap[k * D + dim] = q;
    });
    const [a, b] = v.shift ?? [0, Infinity];
    if (!finiteNumber(a) || Number.isNaN(b) || b < a) fail(`vehicle ${v.id}: shift must be [start, end] with start <= end`);
    shiftStart[k] = a;
    shiftEnd[k] = b;
    vSkills[k] = skillMask(`vehicle ${v.id}`, v.skills);
    const nonNegative = (x: unknown, what: string): number => {
      if (!finiteNumber(x) || x < 0) fail(`vehicle ${v.id}: ${what} must be a non-negative number`);
      return x;
    };
    if (v.costs !== undefined) {
      rich = true;
      vFixed[k] = v.costs.fixed === undefined ? 0 : nonNegative(v.costs.fixed, 'costs.fixed');
      vPerTime[k] = v.costs.perTime === undefined ? 0 : nonNegative(v.costs.perTime, 'costs.perTime');
      vPerDist[k] = v.costs.perDistance === undefined ? 0 : nonNegative(v.costs.perDistance, 'costs.perDistance');
    }
    if (v.maxDuration !== undefined) {
      rich = true;
      vMaxDuration[k] = nonNegative(v.maxDuration, 'maxDuration');
    }
    if (v.maxStops !== undefined) {
      const s = nonNegative(v.maxStops, 'maxStops');
      if (!Number.isInteger(s)) fail(`vehicle ${v.id}: maxStops must be an integer`);
      vMaxStops[k] = s;
    }
    bOff[k] = bLo.length;
    if (v.breaks !== undefined) {
      if (!Array.isArray(v.breaks)) fail(`vehicle ${v.id}: breaks must be an array`);
      const bs = v.breaks
        .map((br, i) => {
          const w = br?.window;
          if (!Array.isArray(w) || w.length !== 2 || !finiteNumber(w[0]) || !finiteNumber(w[1]) || w[0] > w[1])
            fail(`vehicle ${v.id}: break ${i} window must be [start, end] with start <= end`);
          return { lo: w[0], hi: w[1], dur: nonNegative(br.duration, `break ${i} duration`) };
        })
        .sort((x, y) => x.lo - y.lo || x.hi - y.hi);
      for (const br of bs) {
        bLo.push(br.lo);
        bHi.push(br.hi);
        bDur.push(br.dur);
      }
      if (bs.length > 0) rich = true;
    }
    bOff[k + 1] = bLo.length;
    const rules = `${vSkills[k]}|${vFixed[k]},${vPerTime[k]},${vPerDist[k]}|${vMaxDuration[k]}|${vMaxStops[k]}|${bLo.slice(bOff[k]).join(',')};${bHi.slice(bOff[k]).join(',')};${bDur.slice(bOff[k]).join(',')}`;
    const key = `${v.start}|${vEnd[k]}|${a}|${b}|${Array.from(cap.subarray(k * D, k * D + D)).join(',')}|${rules}`;
    let t = types.get(key);
    if (t === undefined) {
      t = types.size;
      types.set(key, t);
    }
    vType[k] = t;
  });

  const role = new Uint8Array(J);
  const partner = new Int32Array(J).fill(-1);
  const pairs = input.pairs ?? [];
  if (!Array.isArray(pairs)) fail('pairs must be an array');
  const jobIndex = new Map(jobIds.map((id, j) => [id, j]));
  pairs.forEach((pair, i) => {
    const p = jobIndex.get(pair?.pickup);
    const q = jobIndex.get(pair?.delivery);
    if (p === undefined || q === undefined) fail(`pair ${i}: pickup and delivery must be job ids`);
    if (p === q) fail(`pair ${i}: pickup and delivery must be two jobs`);
    if (partner[p] >= 0 || partner[q] >= 0) fail(`pair ${i}: a job belongs to one pair at most`);
    const given = jobs[q].demand;
    for (let k = 0; k < D; k++) {
      if (given !== undefined && (given[k] ?? 0) !== demand[p * D + k])
        fail(`pair ${i}: the delivery's demand must be absent or the pickup's`);
      demand[q * D + k] = demand[p * D + k];
    }
    role[p] = 1;
    role[q] = 2;
    partner[p] = q;
    partner[q] = p;
  });

  return {
    n,
    d,
    dT,
    J,
    jobIds,
    loc,
    service,
    D,
    demand,
    wOff,
    wLo: Float64Array.from(lo),
    wHi: Float64Array.from(hi),
    V,
    vehicleIds,
    vStart,
    vEnd,
    cap,
    shiftStart,
    shiftEnd,
    vType,
    rich,
    dist,
    vFixed,
    vPerTime,
    vPerDist,
    vMaxDuration,
    vMaxStops,
    vSkills,
    jSkills,
    skillNames: [...skillIndex.keys()],
    penalty,
    bOff,
    bLo: Float64Array.from(bLo),
    bHi: Float64Array.from(bHi),
    bDur: Float64Array.from(bDur),
    balanceBy,
    balanceWeight,
    hasPairs: pairs.length > 0,
    role,
    partner,
    counter: { work: 0 },
  };
}

/** Earliest service start at or after arrival `a`, or Infinity when every window has closed. */
export function earliestStart(m: FleetModel, j: number, a: number): number {
  for (let w = m.wOff[j], e = m.wOff[j + 1]; w < e; w++) {
    if (a <= m.wHi[w] + EPS) return a > m.wLo[w] ? a : m.wLo[w];
  }
  return Infinity;
}

/** Latest service start no later than `b`, or -Infinity when no window opens by then. */
export function latestStart(m: FleetModel, j: number, b: number): number {
  for (let w = m.wOff[j + 1] - 1, s = m.wOff[j]; w >= s; w--) {
    if (b >= m.wLo[w] - EPS) return b < m.wHi[w] ? b : m.wHi[w];
  }
  return -Infinity;
}

/** Does vehicle v carry every skill job j needs? */
export function skilled(m: FleetModel, v: number, j: number): boolean {
  const need = m.jSkills[j];
  return (need & m.vSkills[v]) >>> 0 === need;
}

/** Does job j's demand fit vehicle v on top of `load` (length D)? */
export function fits(m: FleetModel, v: number, load: Float64Array, j: number): boolean {
  const D = m.D;
  for (let k = 0; k < D; k++) {
    if (load[k] + m.demand[j * D + k] > m.cap[v * D + k] + EPS) return false;
  }
  return true;
}

/** End of the window of job j that service start `s` lies in (Infinity for a job without windows). */
export function windowEnd(m: FleetModel, j: number, s: number): number {
  for (let w = m.wOff[j], e = m.wOff[j + 1]; w < e; w++) {
    if (s <= m.wHi[w] + EPS) return m.wHi[w];
  }
  return Infinity;
}
