import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/errors';
import { createFairQueue } from '../../server/services/workers/fairQueue';

const gate = () => {
  let open!: () => void;
  const p = new Promise<void>((r) => {
    open = r;
  });
  return { p, open };
};

describe('fair queue in front of the worker threads (security issue 30)', () => {
  it('serves waiting keys in turn, not in arrival order', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueued: 10, maxQueuedPerKey: 5 });
    const first = gate();
    const order: string[] = [];
    const job = (name: string, wait?: Promise<void>) => async () => {
      await wait;
      order.push(name);
    };
    const all = [
      q.run('a', job('a0', first.p)),
      // Company A asks for three more before B asks for one: B's comes second, not fifth.
      q.run('a', job('a1')),
      q.run('a', job('a2')),
      q.run('a', job('a3')),
      q.run('b', job('b1')),
    ];
    expect([q.running, q.queued]).toEqual([1, 4]);
    first.open();
    await Promise.all(all);
    expect(order).toEqual(['a0', 'a1', 'b1', 'a2', 'a3']);
    expect([q.running, q.queued]).toEqual([0, 0]);
  });

  it('is bounded per key and in all: a full queue answers 503 with Retry-After at once', async () => {
    const q = createFairQueue({ concurrency: 1, maxQueued: 3, maxQueuedPerKey: 2 });
    const g = gate();
    const run = q.run('a', () => g.p);
    const waiting = [q.run('a', async () => 1), q.run('a', async () => 2)];
    const refused = await q.run('a', async () => 3).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(503);
    expect((refused as ApiError).details).toMatchObject({ retry_after: expect.any(Number) });
    // Another company still gets its place, until the whole queue is full.
    const b = q.run('b', async () => 4);
    expect(await q.run('c', async () => 5).catch((e: ApiError) => e.status)).toBe(503);
    g.open();
    await run;
    expect(await Promise.all([...waiting, b])).toEqual([1, 2, 4]);
  });

  it('a waiting task whose signal aborts leaves the queue without starting', async () => {
    const q = createFairQueue({ concurrency: 1 });
    const g = gate();
    const run = q.run('a', () => g.p);
    const ctl = new AbortController();
    let started = false;
    const dropped = q.run(
      'b',
      async () => {
        started = true;
      },
      { signal: ctl.signal },
    );
    ctl.abort();
    await expect(dropped).rejects.toThrow(/aborted/);
    expect(q.queued).toBe(0);
    g.open();
    await run;
    expect(started).toBe(false);
  });
});
