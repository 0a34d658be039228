/**
 * Route optimiser quality benchmark on TSPLIB instances with proven optima.
 * Run directly: `npx tsx bench/optimizer.ts`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { euc2dMatrix, optimizeRoute, parseTsplib, routeCost } from '../shared/routing';
import { solveTour } from '../shared/routing/ils';
import { flatten } from '../shared/routing/matrix';
import { buildProblem } from '../shared/routing/problem';

export interface OptimizerBenchRow {
  instance: string;
  n: number;
  optimum: number;
  cost100: number;
  gap100: number;
  cost1000: number;
  gap1000: number;
  firstLocalOptimumMs: number;
}

export interface OptimizerBenchResult {
  rows: OptimizerBenchRow[];
  meanGap: number;
  worstGap: number;
  meanGap100: number;
  worstGap100: number;
}

export const INSTANCES = ['berlin52', 'st70', 'eil76', 'pr76', 'kroA100', 'rd100', 'ch150', 'kroA200', 'gil262', 'a280', 'pr299', 'lin318'];

const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'data', 'tsplib');

function loadOptima(): Record<string, number> {
  const raw = JSON.parse(readFileSync(join(DATA_DIR, 'optima.json'), 'utf8')) as Record<string, unknown>;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === 'number') out[k] = v;
  return out;
}

function gapPct(cost: number, optimum: number): number {
  return ((cost - optimum) / optimum) * 100;
}

function solveClosed(matrix: number[][], timeLimitMs: number): number {
  const { order, cost } = optimizeRoute({ matrix, start: 0, end: 0, timeLimitMs });
  if (new Set(order).size !== matrix.length || Math.abs(routeCost(matrix, order, 0) - cost) > 1e-6) {
    throw new Error('optimizer returned an invalid tour');
  }
  return cost;
}

function firstLocalOptimumMs(matrix: number[][]): number {
  const n = matrix.length;
  const problem = buildProblem(flatten(matrix), n, true, 0, 0);
  return solveTour(problem, { timeLimitMs: Infinity, maxIterations: 0, seed: 1 }).firstLocalOptimumMs;
}

export async function runOptimizerBench(log: (line: string) => void = () => undefined): Promise<OptimizerBenchResult> {
  const optima = loadOptima();
  const rows: OptimizerBenchRow[] = [];
  for (const name of INSTANCES) {
    const inst = parseTsplib(readFileSync(join(DATA_DIR, `${name}.tsp`), 'utf8'));
    const matrix = euc2dMatrix(inst);
    const optimum = optima[name];
    firstLocalOptimumMs(matrix); // warm the JIT so the first instance is not penalised
    const cost100 = solveClosed(matrix, 100);
    const cost1000 = solveClosed(matrix, 1000);
    const row: OptimizerBenchRow = {
      instance: name,
      n: inst.dimension,
      optimum,
      cost100,
      gap100: gapPct(cost100, optimum),
      cost1000,
      gap1000: gapPct(cost1000, optimum),
      firstLocalOptimumMs: firstLocalOptimumMs(matrix),
    };
    rows.push(row);
    log(formatRow(row));
    await Promise.resolve();
  }
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    rows,
    meanGap: mean(rows.map((r) => r.gap1000)),
    worstGap: Math.max(...rows.map((r) => r.gap1000)),
    meanGap100: mean(rows.map((r) => r.gap100)),
    worstGap100: Math.max(...rows.map((r) => r.gap100)),
  };
}

const HEADER = ['instance', 'n', 'optimum', 'cost@100ms', 'gap@100ms', 'cost@1000ms', 'gap@1000ms', 'first LO ms'];
const WIDTHS = [10, 5, 9, 11, 10, 12, 11, 12];

function pad(cells: string[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[i]) : c.padStart(WIDTHS[i]))).join(' ');
}

function formatRow(r: OptimizerBenchRow): string {
  return pad([
    r.instance,
    String(r.n),
    String(r.optimum),
    String(r.cost100),
    `${r.gap100.toFixed(2)}%`,
    String(r.cost1000),
    `${r.gap1000.toFixed(2)}%`,
    r.firstLocalOptimumMs.toFixed(1),
  ]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(pad(HEADER));
  const result = await runOptimizerBench((line) => console.log(line));
  console.log(`mean gap @1000ms: ${result.meanGap.toFixed(3)}%   worst gap @1000ms: ${result.worstGap.toFixed(3)}%`);
  console.log(`mean gap @100ms:  ${result.meanGap100.toFixed(3)}%   worst gap @100ms:  ${result.worstGap100.toFixed(3)}%`);
}
