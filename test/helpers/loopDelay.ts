import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopDelay<T> {
  result: T;
  /** Worst and 99th-percentile event-loop delay (ms) while the attack ran. */
  maxMs: number;
  p99Ms: number;
  /** Requests the other user got answered meanwhile. */
  polls: number;
}

/**
 * Runs `attack` while another user polls (`poll`, every ~20 ms), and reports the event-loop delay
 * Node's own monitor saw meanwhile: the server runs in this process (createApp), so a request that
 * holds its event loop shows here as delay, whatever the machine's load does to wall-clock times.
 */
export async function whilePolling<T>(attack: () => Promise<T>, poll: () => Promise<unknown>): Promise<LoopDelay<T>> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  let done = false;
  let polls = 0;
  h.enable();
  // The monitor records a delay only from its second tick on: an attack whose synchronous part starts
  // in this same turn (an in-process SQLite read then the drawing) would block before the monitor's
  // first tick and be missed altogether. Wait until it has recorded samples before attacking.
  while (h.count < 2) await new Promise((r) => setTimeout(r, 10));
  const poller = (async () => {
    while (!done) {
      await poll();
      polls++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    const result = await attack();
    // A block that just ended is recorded at the monitor's next tick: read the histogram after it.
    await new Promise((r) => setTimeout(r, 50));
    return { result, maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, polls };
  } finally {
    done = true;
    await poller;
    h.disable();
  }
}
