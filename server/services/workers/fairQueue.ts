import { ApiError } from '../../errors';

/**
 * A bounded queue in front of worker threads, fair between callers (security issue 30): at most
 * `concurrency` tasks run at once, at most `maxQueued` wait in all and `maxQueuedPerKey` per key
 * (a company, or a staff member), and a free slot goes to the keys in turn, so one company asking
 * for fifty PDFs waits behind its own requests, not in front of everyone else's. A full queue
 * refuses at once with 503 and Retry-After instead of growing; a waiting task whose signal aborts
 * leaves the queue without ever starting.
 */
export interface FairQueue {
  run<T>(key: string, task: () => Promise<T>, options?: { signal?: AbortSignal }): Promise<T>;
  readonly running: number;
  readonly queued: number;
}

export interface FairQueueOptions {
  concurrency?: number;
  maxQueued?: number;
  maxQueuedPerKey?: number;
  /** Words for the 503: "Other plans are being made right now". */
  busyMessage?: string;
  retryAfterS?: number;
}

export const abortedError = (what: string) => new Error(`${what} aborted`);

export function createFairQueue(options: FairQueueOptions = {}): FairQueue {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const maxQueued = Math.max(0, options.maxQueued ?? 16);
  const maxPerKey = Math.max(0, options.maxQueuedPerKey ?? 4);
  const retryAfter = options.retryAfterS ?? 5;
  const busy = options.busyMessage ?? 'The server is busy with other heavy requests; try again in a few seconds';
  let running = 0;
  let queued = 0;
  // Keys with waiting tasks, in the order their turn comes; each key's tasks in arrival order.
  const turns: string[] = [];
  const waiting = new Map<string, (() => void)[]>();

  const next = (): void => {
    while (running < concurrency && turns.length > 0) {
      const key = turns.shift() as string;
      const list = waiting.get(key) as (() => void)[];
      const start = list.shift() as () => void;
      queued--;
      if (list.length) turns.push(key);
      else waiting.delete(key);
      start();
    }
  };
  const remove = (key: string, start: () => void): boolean => {
    const list = waiting.get(key);
    const i = list ? list.indexOf(start) : -1;
    if (!list || i < 0) return false;
    list.splice(i, 1);
    queued--;
    if (!list.length) {
      waiting.delete(key);
      turns.splice(turns.indexOf(key), 1);
    }
    return true;
  };

  return {
    get running() {
      return running;
    },
    get queued() {
      return queued;
    },
    run<T>(key: string, task: () => Promise<T>, opts: { signal?: AbortSignal } = {}) {
      return new Promise<T>((resolve, reject) => {
        if (opts.signal?.aborted) {
          reject(abortedError('the task was'));
          return;
        }
        const mine = waiting.get(key)?.length ?? 0;
        const mustWait = running >= concurrency;
        if (mustWait && (queued >= maxQueued || mine >= maxPerKey)) {
          reject(new ApiError(503, 'service_unavailable', busy, [], { retry_after: retryAfter }));
          return;
        }
        const start = (): void => {
          opts.signal?.removeEventListener('abort', onAbort);
          running++;
          let p: Promise<T>;
          try {
            p = task();
          } catch (err) {
            p = Promise.reject(err);
          }
          p.then(resolve, reject).finally(() => {
            running--;
            next();
          });
        };
        const onAbort = (): void => {
          if (remove(key, start)) reject(abortedError('the task was'));
        };
        opts.signal?.addEventListener('abort', onAbort, { once: true });
        const list = waiting.get(key);
        if (list) list.push(start);
        else {
          waiting.set(key, [start]);
          turns.push(key);
        }
        queued++;
        next();
      });
    },
  };
}
