import { depotFleet, euclideanMatrix } from './solomon';
import type { FleetInput, FleetPair } from './types';

/**
 * Reader for the Li & Lim PDPTW text format (benchmarks): `vehicles capacity speed`, then one row
 * per task `id x y demand ready due service pickup delivery`; row 0 is the depot (its due date the
 * horizon), a pickup has a positive demand and names its delivery, a delivery a negative one and
 * names its pickup. Travel time is the unrounded Euclidean distance.
 */
export interface LiLimInstance {
  vehicles: number;
  capacity: number;
  input: FleetInput;
}

export function parseLiLim(text: string): LiLimInstance {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const [vehicles, capacity] = lines[0].split(/\s+/).map(Number);
  if (!Number.isInteger(vehicles) || !Number.isFinite(capacity))
    throw new RangeError('li-lim: first line must be "vehicles capacity speed"');
  const rows = lines.slice(1).map((l) => l.split(/\s+/).map(Number));
  if (rows.some((r) => r.length < 9 || !r.every(Number.isFinite))) throw new RangeError('li-lim: every task row has 9 numbers');
  const matrix = euclideanMatrix(rows);
  const pairs: FleetPair[] = [];
  for (const r of rows.slice(1)) if (r[3] > 0 && r[8] > 0) pairs.push({ pickup: r[0], delivery: r[8] });
  return {
    vehicles,
    capacity,
    input: {
      matrix,
      vehicles: depotFleet(vehicles, capacity, [rows[0][4], rows[0][5]]),
      // A delivery's load is its pickup's (the pair's).
      jobs: rows.slice(1).map((r) => ({
        id: r[0],
        location: r[0],
        ...(r[3] > 0 ? { demand: [r[3]] } : {}),
        service: r[6],
        windows: [[r[4], r[5]]] as [number, number][],
      })),
      pairs,
    },
  };
}
