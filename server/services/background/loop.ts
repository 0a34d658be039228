/**
 * A background job run now and then: one pass at a time (a call while a pass runs joins it), on an
 * unref'd timer, and `stop()` waits for the pass in flight. The outboxes' dispatchers share it.
 */
export interface BackgroundLoop {
  runOnce(): Promise<number>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

export function backgroundLoop(
  pass: () => Promise<number>,
  opts: { name: string; intervalMs: number; log?: (line: string) => void },
): BackgroundLoop {
  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const runOnce = (): Promise<number> => {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };
  return {
    runOnce,
    start(intervalMs = opts.intervalMs) {
      if (timer) return;
      timer = setInterval(() => {
        runOnce().catch((err: unknown) => opts.log?.(`[${opts.name}] dispatcher error: ${String(err)}`));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
