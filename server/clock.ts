export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can move. */
export function manualClock(start = Date.UTC(2026, 0, 5, 8, 0, 0)): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

export function iso(ms: number | null | undefined): string | null {
  return ms == null ? null : new Date(ms).toISOString();
}
