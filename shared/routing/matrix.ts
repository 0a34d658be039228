export type MatrixInput = ArrayLike<ArrayLike<number>>;

/** Checks shape and values up front so the solver's hot loops never see bad data. */
export function validateMatrix(matrix: MatrixInput, what = 'matrix'): number {
  if (matrix == null || typeof matrix.length !== 'number') {
    throw new RangeError(`${what} must be an array of rows`);
  }
  const n = matrix.length;
  for (let i = 0; i < n; i++) {
    const row = matrix[i];
    if (row == null || row.length !== n) {
      throw new RangeError(`${what} must be square: row ${i} has length ${row?.length ?? 'none'}, expected ${n}`);
    }
    for (let j = 0; j < n; j++) {
      const v = row[j];
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new RangeError(`${what}[${i}][${j}] is not a finite number (${String(v)})`);
      }
    }
  }
  return n;
}

/** Row-major copy in a typed array: one allocation and much faster indexing than nested arrays. */
export function flatten(matrix: MatrixInput, size = matrix.length): Float64Array {
  const n = matrix.length;
  const flat = new Float64Array(size * size);
  for (let i = 0; i < n; i++) {
    const row = matrix[i];
    for (let j = 0; j < n; j++) flat[i * size + j] = row[j];
  }
  return flat;
}

export function isSymmetric(d: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = d[i * n + j];
      const b = d[j * n + i];
      // Relative tolerance: road matrices often differ in the last bits between directions.
      if (Math.abs(a - b) > 1e-9 * Math.max(1, Math.abs(a), Math.abs(b))) return false;
    }
  }
  return true;
}

/**
 * Total of the edges used by `order`. A closed tour (end === order[0]) also pays the edge
 * back to the first stop; otherwise the route is an open path.
 */
export function routeCost(matrix: MatrixInput, order: ArrayLike<number>, end: number | null): number {
  let cost = 0;
  for (let i = 1; i < order.length; i++) cost += matrix[order[i - 1]][order[i]];
  if (order.length > 0 && end !== null && end === order[0]) {
    cost += matrix[order[order.length - 1]][order[0]];
  }
  return cost;
}
