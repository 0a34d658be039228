import { etaBand } from '../../../shared/routing/eta';

/**
 * Planned against actual arrival (issue 31), plain so the report and the bench compute the same
 * figures. A stop's error is its actual arrival minus the arrival promised at commit.
 */
export interface ArrivalSample {
  planned: number;
  actual: number;
  /** Epoch ms of the stop's delivery window, when it had one. */
  window: readonly [number, number] | null;
}

export interface ArrivalStats {
  stops: number;
  mean_abs_error_min: number | null;
  p90_abs_error_min: number | null;
  mean_error_min: number | null;
  windowed: number;
  in_window: number | null;
  in_band: number | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The nearest-rank percentile (p in 0..100) of numbers. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Whether the actual arrival fell inside the half-hour band told to the recipient for the planned one. */
export const inBand = (s: ArrivalSample) => {
  const [from, to] = etaBand(s.planned, s.window?.[0] ?? null);
  return s.actual >= from && s.actual <= to;
};

export function arrivalStats(samples: readonly ArrivalSample[]): ArrivalStats {
  const errors = samples.map((s) => (s.actual - s.planned) / 60_000);
  const abs = errors.map(Math.abs);
  const windowed = samples.filter((s) => s.window != null);
  const mean = (xs: number[]) => (xs.length ? round2(xs.reduce((a, b) => a + b, 0) / xs.length) : null);
  const p90 = percentile(abs, 90);
  return {
    stops: samples.length,
    mean_abs_error_min: mean(abs),
    p90_abs_error_min: p90 == null ? null : round2(p90),
    mean_error_min: mean(errors),
    windowed: windowed.length,
    in_window: windowed.length
      ? round2(windowed.filter((s) => s.actual >= s.window![0] && s.actual <= s.window![1]).length / windowed.length)
      : null,
    in_band: samples.length ? round2(samples.filter(inBand).length / samples.length) : null,
  };
}
