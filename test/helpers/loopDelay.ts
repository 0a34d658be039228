import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopDelay<T> {
  result: T;
  /** Worst and 99th-percentile event-loop delay (ms) while the attack ran: wall time, so a busy machine adds to it. */
  maxMs: number;
  p99Ms: number;
  /**
   * The most CPU time (ms, in 10 ms ticks) this thread spent between two turns of a 10 ms timer:
   * how long code held the event loop, whatever the machine's load did to wall-clock times. Equal
   * to `maxMs` where Linux's per-thread CPU clock is missing.
   */
  busyMs: number;
  /** Requests the other user got answered meanwhile. */
  polls: number;
}

/** This thread's CPU milliseconds (user + system), from Linux's per-thread clock; null elsewhere. */
function threadCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(rest[11]) + Number(rest[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

/**
 * Runs `attack` while another user polls (`poll`, every ~20 ms), and reports the event-loop delay
 * Node's own monitor saw meanwhile: the server runs in this process (createApp), so a request that
 * holds its event loop shows here as delay. On a loaded machine the delay also counts the time the
 * operating system gave the process nothing; `busyMs` counts only the CPU this thread spent
 * between two timer turns, which is what a request holding the loop costs everyone else.
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
  let lastCpu = threadCpuMs();
  let busy = 0;
  const ticker = setInterval(() => {
    const now = threadCpuMs();
    if (now !== null && lastCpu !== null) busy = Math.max(busy, now - lastCpu);
    lastCpu = now;
  }, 10);
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
    const maxMs = h.max / 1e6;
    return { result, maxMs, p99Ms: h.percentile(99) / 1e6, busyMs: lastCpu === null ? maxMs : busy, polls };
  } finally {
    done = true;
    clearInterval(ticker);
    await poller;
    h.disable();
  }
}
