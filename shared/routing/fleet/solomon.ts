import type { FleetInput } from './types';

/**
 * Reader for the Solomon / Gehring-Homberger VRPTW text format (benchmarks): vehicle count and
 * capacity, then `id x y demand ready due service` rows, row 0 the depot whose due date is the
 * horizon. Travel time is the unrounded Euclidean distance.
 */
export interface SolomonInstance {
  name: string;
  vehicles: number;
  capacity: number;
  input: FleetInput;
}

export function parseSolomon(text: string): SolomonInstance {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const name = lines[0];
  const vIdx = lines.findIndex((l) => /^NUMBER\s+CAPACITY/i.test(l));
  if (vIdx < 0) throw new RangeError('solomon: missing VEHICLE section');
  const [vehicles, capacity] = lines[vIdx + 1].split(/\s+/).map(Number);
  const rows: number[][] = [];
  const cIdx = lines.findIndex((l) => /^CUST/i.test(l));
  for (const line of lines.slice(cIdx + 1)) {
    if (!line) continue;
    const r = line.split(/\s+/).map(Number);
    if (r.length >= 7 && r.every(Number.isFinite)) rows.push(r);
  }
  const matrix = euclideanMatrix(rows);
  const horizon = rows[0][5];
  return {
    name,
    vehicles,
    capacity,
    input: {
      matrix,
      vehicles: depotFleet(vehicles, capacity, [rows[0][4], horizon]),
      jobs: rows
        .slice(1)
        .map((r, k) => ({ id: k + 1, location: k + 1, demand: [r[3]], service: r[6], windows: [[r[4], r[5]]] as [number, number][] })),
    },
  };
}

/** Benchmark rows `id x y ...`: unrounded Euclidean travel between every two rows (Solomon, Li & Lim). */
export function euclideanMatrix(rows: readonly (readonly number[])[]): number[][] {
  const n = rows.length;
  const matrix: number[][] = [];
  for (let i = 0; i < n; i++) {
    const row = new Array<number>(n);
    for (let j = 0; j < n; j++) row[j] = Math.hypot(rows[i][1] - rows[j][1], rows[i][2] - rows[j][2]);
    matrix.push(row);
  }
  return matrix;
}

/** A benchmark's identical vans, all starting and ending at location 0 (the depot) within its horizon. */
export function depotFleet(count: number, capacity: number, shift: [number, number]): FleetInput['vehicles'] {
  return Array.from({ length: count }, (_, k) => ({ id: k + 1, start: 0, end: 0, capacity: [capacity], shift }));
}
