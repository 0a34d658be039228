import { apiUrl, type Transport } from './http';

/**
 * While the queue waits out a back-off (the office did not answer, or answered 5xx), a cheap question
 * asked often: does the server answer again? The back-off grows to minutes so a fleet of phones does
 * not hammer a struggling server with whole passes; the probe is one tiny GET with no session and no
 * database behind it (`GET reach/`, 204), so it may be asked every few seconds and the queue goes
 * within seconds of the office coming back instead of at the next long timer (issue 35).
 */
export interface ProbeOptions {
  transport: Transport;
  /** The first question comes this soon; each unanswered one doubles the wait up to `maxMs`. */
  firstMs: number;
  maxMs: number;
  /** Called once when the server answers 2xx; the probe has stopped by then. */
  onAnswer: () => void;
  random?: () => number;
}

export interface Probe {
  /** Starts asking (no-op when already asking); `notBeforeMs`: the server's Retry-After, honoured. */
  start(notBeforeMs?: number | null): void;
  stop(): void;
  readonly active: boolean;
}

export function createProbe(o: ProbeOptions): Probe {
  const random = o.random ?? Math.random;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let active = false;
  let wait = o.firstMs;
  // A question in flight when the probe is stopped (and maybe started again) must not count.
  let round = 0;

  const next = (delay: number) => {
    timer = setTimeout(() => {
      timer = null;
      void ask(round);
    }, delay);
  };

  async function ask(mine: number): Promise<void> {
    const controller = new AbortController();
    const cut = setTimeout(() => controller.abort(), Math.min(o.transport.timeoutMs, 10_000));
    let answered = false;
    let retryAfterMs = 0;
    try {
      const res = await o.transport.fetch(apiUrl(o.transport.baseUrl, 'reach/'), {
        method: 'GET',
        signal: controller.signal,
        cache: 'no-store',
      });
      answered = res.ok;
      const after = Number(res.headers.get('retry-after'));
      if (Number.isFinite(after) && after > 0) retryAfterMs = after * 1000;
    } catch {
      /* no answer: ask again later */
    } finally {
      clearTimeout(cut);
    }
    if (!active || mine !== round) return;
    if (answered) {
      stop();
      o.onAnswer();
      return;
    }
    wait = Math.min(o.maxMs, wait * 2);
    // Jitter, as the back-off has: phones that lost the office together do not ask in step.
    next(Math.max(retryAfterMs, Math.round(wait * (0.75 + random() * 0.25))));
  }

  function stop(): void {
    active = false;
    round += 1;
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
  }

  return {
    start(notBeforeMs) {
      if (active) return;
      active = true;
      round += 1;
      wait = o.firstMs;
      next(Math.max(notBeforeMs ?? 0, o.firstMs));
    },
    stop,
    get active() {
      return active;
    },
  };
}
