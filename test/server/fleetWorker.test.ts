import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSolomon } from '../../shared/routing';
import { createFleetPlanner } from '../../server/services/planning/planner';
import { runFleet } from '../../server/services/planning/runFleet';
import { checkPlan } from '../shared/fleet-helpers';

const R101 = join(__dirname, '..', '..', '..', 'shared', 'benchmarks', 'solomon', 'R101.txt');

describe('runFleet (worker thread)', () => {
  it('plans a Solomon day in a worker while the event loop keeps running', async () => {
    const input = parseSolomon(readFileSync(R101, 'utf8')).input;
    const order: string[] = [];
    const plan = runFleet({ ...input, timeLimitMs: 500, seed: 3 }).then((r) => {
      order.push('plan');
      return r;
    });
    // Were the solver on this thread, this timer could only fire after the plan.
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push('timer');
    const res = await plan;
    expect(order).toEqual(['timer', 'plan']);
    expect(checkPlan(input, res).violations).toEqual([]);
    expect(res.unassigned).toEqual([]);
    expect(res.routes.flatMap((r) => r.jobs).sort((a, b) => a - b)).toEqual(input.jobs.map((j) => j.id));
  });

  it('rejects malformed input with the optimiser RangeError', async () => {
    await expect(runFleet({ matrix: [[0, 1]], vehicles: [], jobs: [] })).rejects.toThrow(RangeError);
    await expect(runFleet({ matrix: [[0]], vehicles: [{ id: 1, start: 3 }], jobs: [] })).rejects.toThrow(/start must be a matrix index/);
  });

  it('an abort stops the worker and rejects', async () => {
    const input = parseSolomon(readFileSync(R101, 'utf8')).input;
    const ctl = new AbortController();
    const plan = runFleet({ ...input, timeLimitMs: 60_000 }, { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 50);
    await expect(plan).rejects.toThrow(/aborted/);
    await expect(runFleet(input, { signal: ctl.signal })).rejects.toThrow(/aborted/);
  });

  it('a planner runs one plan at a time, in order, and drops an aborted queued plan', async () => {
    const input = parseSolomon(readFileSync(R101, 'utf8')).input;
    const planner = createFleetPlanner({ concurrency: 1 });
    const done: string[] = [];
    const first = planner.plan({ ...input, timeLimitMs: 200, seed: 1 }).then((r) => {
      done.push('first');
      return r;
    });
    const ctl = new AbortController();
    const dropped = planner.plan({ ...input, timeLimitMs: 200 }, { signal: ctl.signal });
    const second = planner.plan({ ...input, timeLimitMs: 200, seed: 2 }).then((r) => {
      done.push('second');
      return r;
    });
    expect([planner.running, planner.queued]).toEqual([1, 2]);
    ctl.abort();
    await expect(dropped).rejects.toThrow(/aborted/);
    expect([planner.running, planner.queued]).toEqual([1, 1]);
    const [a, b] = await Promise.all([first, second]);
    expect(done).toEqual(['first', 'second']);
    expect(checkPlan(input, a).violations).toEqual([]);
    expect(checkPlan(input, b).violations).toEqual([]);
    expect([planner.running, planner.queued]).toEqual([0, 0]);
  });
});
