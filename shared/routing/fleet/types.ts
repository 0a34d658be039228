/** The public shape of `optimizeFleet` (issue 16, extended by issue 32): indices into `matrix` for every place. */

/**
 * What a vehicle costs (issue 32). Absent on every vehicle and no `distance` matrix: the cost is
 * total travel time ("distance only", the Solomon benchmarks' objective).
 */
export interface FleetCosts {
  /** Once per vehicle that gets any job. */
  fixed?: number;
  /** Per unit of route duration (matrix time units: from the latest useful departure to the end, waiting and breaks included). */
  perTime?: number;
  /** Per unit of `distance` (or of `matrix` travel time when no `distance` is given). */
  perDistance?: number;
}

/** A break the driver must take: `duration` long, starting inside `window` (absolute times, like `shift`). */
export interface FleetBreak {
  duration: number;
  window: [number, number];
}

export interface FleetVehicle {
  id: number;
  /** Location index the vehicle leaves from. */
  start: number;
  /** Location index it must return to; absent: the route ends at its last job. */
  end?: number;
  /** One limit per demand dimension (kg, volume, parcel count...); absent dimensions are unlimited. */
  capacity?: number[];
  /** [leave start no earlier than, be back at end (or finish the last job) no later than]. */
  shift?: [number, number];
  /** Skills the vehicle and its driver carry (refrigerated, tail-lift...). */
  skills?: string[];
  costs?: FleetCosts;
  /** Longest route, from the (shifted) departure to the end, waits and breaks included. */
  maxDuration?: number;
  /** Most jobs on the route. */
  maxStops?: number;
  /**
   * Breaks, taken on arrival at a stop before its service (filling a wait for its window) or before
   * the return, where they make the route end earliest. A break whose window opens only after the
   * route is over is not taken.
   */
  breaks?: FleetBreak[];
}

export interface FleetJob {
  id: number;
  location: number;
  demand?: number[];
  /** Time spent at the stop once service starts. */
  service?: number;
  /** Service must start inside one of these; arriving early means waiting. Absent or empty: any time. */
  windows?: [number, number][];
  /** Skills the serving vehicle must carry, every one of them. */
  skills?: string[];
  /**
   * Cost of leaving the job out. Absent: serving it comes first (the plan serves as many such
   * jobs as it can before it looks at cost); a job with a penalty is left out when serving it
   * costs more than the penalty.
   */
  penalty?: number;
}

/**
 * A shipment (issue 32): `pickup` and `delivery` are ids of two jobs served by the same vehicle,
 * the pickup first. The pickup's `demand` is loaded there and carried until the delivery (whose own
 * `demand`, if given, must be the same), so capacity is checked at every point of the route: a
 * vehicle leaves with the demand of its unpaired jobs (deliveries from the depot), drops each at
 * its stop, and picks up and drops each pair's load on the way. Both are served or neither is.
 */
export interface FleetPair {
  pickup: number;
  delivery: number;
}

/** Balance work across vehicles: adds `weight` x (route duration, or stops)² per route, so equal shares cost least. */
export interface FleetBalance {
  by: 'duration' | 'stops';
  weight: number;
}

export interface FleetInput {
  /** Travel time between locations, square; without costs the cost is total travel. */
  matrix: number[][];
  /** Distance between locations (same shape), for `perDistance`; absent: `matrix` stands in. */
  distance?: number[][];
  vehicles: FleetVehicle[];
  jobs: FleetJob[];
  balance?: FleetBalance;
  /** Pickup-and-delivery pairs; absent: every job is a delivery from the vehicle's start. */
  pairs?: FleetPair[];
  /**
   * Budget. The search spends a deterministic amount of work derived from it (what one quiet core
   * of the benchmark machine does in that time), so a seed and a limit give one plan; the thread's
   * CPU time stops it at 1.5 x the limit on a machine too slow to spend that work in time.
   */
  timeLimitMs?: number;
  seed?: number;
}

/** A break in a planned route. */
export interface FleetRouteBreak {
  /** The break is taken on arrival at `jobs[before]`, before its service (before = jobs.length: after the last stop, before the return). */
  before: number;
  start: number;
  end: number;
}

export interface FleetRoute {
  vehicle: number;
  jobs: number[];
  /** Latest departure that keeps the schedule (vans do not leave early only to wait). */
  departure?: number;
  /** Per job: arrival, service start, and the wait between them. */
  arrivals?: number[];
  starts?: number[];
  waits?: number[];
  breaks?: FleetRouteBreak[];
  /** Return to the end (closed) or last job's end (open). */
  end?: number;
  duration?: number;
  /** Travel time (matrix units) and distance (`distance` units, or travel time without it). */
  travel?: number;
  distance?: number;
  /** This route's share of the objective (fixed + distance + time + balance). */
  cost?: number;
}

export interface FleetResult {
  /** One entry per vehicle that got work, in the order vehicles were given. */
  routes: FleetRoute[];
  /** Job ids no vehicle serves, in the order jobs were given. */
  unassigned: number[];
  /** Total objective: route costs plus the penalties of jobs left out that have one. */
  cost?: number;
}
