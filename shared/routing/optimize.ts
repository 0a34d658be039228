import { EXACT_MAX_STOPS, solveExact } from './exact';
import { solveTour } from './ils';
import { flatten, isSymmetric, routeCost, validateMatrix, type MatrixInput } from './matrix';
import { buildProblem, extractOrder } from './problem';

export interface OptimizeInput {
  matrix: ArrayLike<ArrayLike<number>> | number[][];
  start: number;
  /** === start: closed tour; another index: path ending there; null: path ending anywhere. */
  end: number | null;
  timeLimitMs?: number;
  seed?: number;
  /**
   * Caps the number of improvement iterations. With no timeLimitMs given, the run is then
   * bounded by iterations only and fully reproducible regardless of machine speed.
   */
  maxIterations?: number;
}

export interface OptimizeResult {
  order: number[];
  cost: number;
}

export const DEFAULT_TIME_LIMIT_MS = 1000;
export const DEFAULT_SEED = 0x5eed;

function checkIndex(name: string, v: unknown, n: number): void {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= n) {
    throw new RangeError(`${name} must be an integer stop index in [0, ${n - 1}], got ${String(v)}`);
  }
}

function checkBudget(name: string, v: number | undefined): void {
  if (v !== undefined && (typeof v !== 'number' || Number.isNaN(v) || v < 0)) {
    throw new RangeError(`${name} must be a non-negative number, got ${String(v)}`);
  }
}

export function optimizeRoute(input: OptimizeInput): OptimizeResult {
  const matrix: MatrixInput = input.matrix;
  const n = validateMatrix(matrix);
  if (n === 0) throw new RangeError('matrix must have at least one stop');
  checkIndex('start', input.start, n);
  if (input.end !== null) checkIndex('end', input.end, n);
  checkBudget('timeLimitMs', input.timeLimitMs);
  checkBudget('maxIterations', input.maxIterations);
  if (input.seed !== undefined && !Number.isFinite(input.seed)) {
    throw new RangeError(`seed must be a finite number, got ${String(input.seed)}`);
  }
  const { start, end } = input;
  const flat = flatten(matrix);

  let order: number[];
  if (n <= EXACT_MAX_STOPS) {
    order = solveExact(flat, n, start, end);
  } else {
    const problem = buildProblem(flat, n, isSymmetric(flat, n), start, end);
    const iterationBound = input.maxIterations !== undefined && input.timeLimitMs === undefined;
    const result = solveTour(problem, {
      timeLimitMs: iterationBound ? Infinity : (input.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS),
      maxIterations: input.maxIterations ?? Infinity,
      seed: input.seed ?? DEFAULT_SEED,
    });
    order = extractOrder(problem, result.tour);
  }
  return { order, cost: routeCost(matrix, order, end) };
}
