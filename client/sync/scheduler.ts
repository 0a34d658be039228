import type { Transport } from './http';
import { createProbe } from './probe';
import { onlineNow, type StatusBoard } from './status';
import type { Reach } from './types';

export interface SchedulerOptions {
  /** The device clock (back-off deadlines). */
  now: () => number;
  random: () => number;
  backoff: { baseMs: number; maxMs: number };
  /** How often a started engine tries on its own. */
  pollMs: number;
  status: StatusBoard;
  /** One pass of work (pass.ts); it reports how it ended through the scheduler's methods. */
  pass: () => Promise<void>;
  /** Ask `GET reach/` during a back-off (probe.ts); null: wait for the timer. */
  probe: { transport: Transport; firstMs: number; maxMs: number } | null;
}

/**
 * When passes run: never two at once, none lost, the back-off after a failure, the poll, and the
 * triggers that must go at once. Knows nothing of the outbox; `pass` does the work.
 */
export interface Scheduler {
  /**
   * Runs a pass, or asks the running one to go again. `force` ignores a back-off; `asked`: the
   * driver's own "Sync now", the only trigger that tries without signal.
   */
  kick(force: boolean, asked?: boolean): Promise<void>;
  readonly started: boolean;
  readonly closed: boolean;
  /** Marks the engine started: from now on saved actions kick. */
  markStarted(): void;
  /** Starts the poll (the triggers are wired by the facade); the first pass checks the server's seq. */
  begin(): void;
  /** No timer fires again; the pass in flight finishes. */
  stop(): Promise<void>;
  /** Whether this pass asks the server for its last seq first (start, signal back, after a failure). */
  readonly deviceCheckDue: boolean;
  deviceChecked(): void;
  /** Signal is back (the browser's 'online'): the back-off is forgotten and a pass goes now. */
  signalBack(): void;
  /** A pass must run again once this one ends (more work appeared while it ran). */
  again(): void;
  /** Tries again in `ms` (another tab holds the outbox, or the lock was lost). */
  schedule(ms: number): void;
  /** A pass finished: the back-off and the probe end. */
  succeeded(): void;
  /** A pass failed: answers the jittered back-off it scheduled (and starts the probe if it helps). */
  backOff(retryAfterMs: number | null, reach: Reach): number;
  /** A new session: its first attempt does not wait out the last one's failures. */
  resetFailures(): void;
}

export function createScheduler(o: SchedulerOptions): Scheduler {
  const { now, random, backoff, status } = o;
  let failures = 0;
  let started = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let poll: ReturnType<typeof setInterval> | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  // A forced trigger (signal back, page visible, the driver asked) that arrived during a pass: the
  // next round runs even if that pass just scheduled a back-off.
  let urgent = false;
  // Whether the next pass asks the server for its last seq first: at start, when signal returns and
  // after a failed pass (the server may have been down for a restore).
  let deviceCheckDue = true;
  // The office answers again: the queue goes now, not at the back-off timer (kick is hoisted).
  const probe = o.probe
    ? createProbe({
        ...o.probe,
        random,
        onAnswer: () => {
          deviceCheckDue = true;
          void kick(true);
        },
      })
    : null;

  const backingOff = () => status.state.nextRetryAt != null && status.state.nextRetryAt > now();

  function schedule(delayMs: number): void {
    if (!started || closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(
      () => {
        timer = null;
        void kick(true);
      },
      Math.max(0, delayMs),
    );
  }

  /**
   * Without signal only the driver's own "Sync now" (`asked`) tries: every other attempt would be a
   * failed request and a console error; the browser's 'online' event starts the next one.
   */
  function kick(force: boolean, asked = false): Promise<void> {
    if (closed) return Promise.resolve();
    if (!asked && !onlineNow()) {
      if (status.state.online || status.state.reach !== 'no_signal') status.publish({ online: false, reach: 'no_signal' });
      return running ?? Promise.resolve();
    }
    if (!force && backingOff()) return running ?? Promise.resolve();
    if (running) {
      again = true;
      if (force) urgent = true;
      return running;
    }
    running = (async () => {
      status.publish({ syncing: true });
      try {
        do {
          again = false;
          if (urgent) {
            // The pass that just ended may have scheduled a back-off; this trigger goes now.
            urgent = false;
            failures = 0;
            if (timer) {
              clearTimeout(timer);
              timer = null;
            }
            status.publish({ nextRetryAt: null });
          }
          await o.pass();
        } while (again && !closed && (urgent || !backingOff()));
      } finally {
        running = null;
        if (!closed) {
          status.publish({ syncing: false });
          await status.refreshCounts();
        }
      }
    })();
    return running;
  }

  return {
    kick,
    get started() {
      return started;
    },
    get closed() {
      return closed;
    },
    markStarted() {
      started = true;
    },
    begin() {
      deviceCheckDue = true;
      poll = setInterval(() => {
        void kick(false);
      }, o.pollMs);
    },
    async stop() {
      started = false;
      closed = true;
      if (timer) clearTimeout(timer);
      if (poll) clearInterval(poll);
      probe?.stop();
      await running;
    },
    get deviceCheckDue() {
      return deviceCheckDue;
    },
    deviceChecked() {
      deviceCheckDue = false;
    },
    signalBack() {
      deviceCheckDue = true;
      failures = 0;
      status.publish({ online: true, nextRetryAt: null, reach: 'ok' });
      void kick(true);
    },
    again() {
      again = true;
    },
    schedule,
    succeeded() {
      probe?.stop();
      failures = 0;
    },
    backOff(retryAfterMs, reach) {
      deviceCheckDue = true;
      failures += 1;
      const exp = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(failures - 1, 20));
      // Jitter spreads a fleet of phones that regain signal together.
      const delay = Math.max(retryAfterMs ?? 0, Math.round(exp * (0.5 + random() * 0.5)));
      schedule(delay);
      // Without signal the browser's 'online' event is the cue; with it, the probe asks meanwhile.
      if (probe && o.probe && reach !== 'no_signal' && delay > o.probe.firstMs) probe.start(retryAfterMs);
      return delay;
    },
    resetFailures() {
      failures = 0;
    },
  };
}
