/** The public shape of `optimizeFleet` (issue 16): indices into `matrix` for every place. */
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
}

export interface FleetJob {
  id: number;
  location: number;
  demand?: number[];
  /** Time spent at the stop once service starts. */
  service?: number;
  /** Service must start inside one of these; arriving early means waiting. Absent or empty: any time. */
  windows?: [number, number][];
}

export interface FleetInput {
  /** Travel time between locations, square; cost is total travel. */
  matrix: number[][];
  vehicles: FleetVehicle[];
  jobs: FleetJob[];
  timeLimitMs?: number;
  seed?: number;
}

export interface FleetRoute {
  vehicle: number;
  jobs: number[];
}

export interface FleetResult {
  /** One entry per vehicle that got work, in the order vehicles were given. */
  routes: FleetRoute[];
  /** Job ids no vehicle serves, in the order jobs were given. */
  unassigned: number[];
}
