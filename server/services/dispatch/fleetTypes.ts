/** The interface of `optimizeFleet` (issue 16, shared/routing): what the planner sends to the worker and gets back. */
export interface FleetVehicle { id: number; start: number; end?: number; capacity?: number[]; shift?: [number, number] }
export interface FleetJob { id: number; location: number; demand?: number[]; service?: number; windows?: [number, number][] }
export interface FleetInput {
  matrix: number[][];
  vehicles: FleetVehicle[];
  jobs: FleetJob[];
  timeLimitMs?: number;
  seed?: number;
}
export interface FleetResult { routes: { vehicle: number; jobs: number[] }[]; unassigned: number[] }
