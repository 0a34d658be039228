/** The scale bench's sizes: a courier grows in drivers, companies and zones together with its parcels. */
export interface ScaleOptions {
  companies: number;
  drivers: number;
  zones: number;
  /** Per driver: parcels assigned for the inbound-scan run. */
  toScan: number;
  /** Per driver: parcels assigned for the device drain (each scanned, then delivered). */
  toDrain: number;
  /** Per driver: parcels already on the van for the deliver run. */
  onVan: number;
  /** Total packages, the rest being delivered parcels of past weeks. */
  packages: number;
  /** Delivered parcels per driver per day in the history (how many days it spans follows from the size). */
  perDay: number;
  connections: number;
  /** Seconds per read run. */
  duration: number;
  /** Requests per write run (each one a parcel of its own, so never more than were seeded). */
  writes: number;
  /**
   * Drivers the write runs spread over, the same at every size (200: ten scans and ten delivers each
   * at 2,000 writes), so each size compares like with like. Spread over all drivers, 1M's 2,000
   * delivers fell one per driver against ten per driver at 100k.
   */
  writeDrivers: number;
  /** Devices that drain a queued outbox at once after the load runs (0: no drain). */
  drainDevices: number;
  /**
   * What to do after the seed (SCALE_STEPS, default all): `load` (the five requests and the device
   * drain), `backup`, `restore` (needs `backup`). At 10M a step alone is half an hour, so a run can
   * measure only what is missing.
   */
  steps: ScaleStep[];
}

export const SCALE_STEPS = ['load', 'backup', 'restore'] as const;
export type ScaleStep = (typeof SCALE_STEPS)[number];

export function parseSteps(value: string | undefined): ScaleStep[] {
  const steps = (value ?? SCALE_STEPS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of steps)
    if (!(SCALE_STEPS as readonly string[]).includes(s)) throw new Error(`unknown scale step ${s}: some of ${SCALE_STEPS.join(', ')}`);
  if (steps.includes('restore') && !steps.includes('backup'))
    throw new Error("the restore step restores the backup step's file: add backup");
  return steps as ScaleStep[];
}

export const SCALE_DEFAULTS: ScaleOptions = {
  companies: 20,
  drivers: 200,
  zones: 10,
  toScan: 50,
  toDrain: 50,
  onVan: 50,
  packages: 100_000,
  perDay: 20,
  connections: 50,
  duration: 5,
  writes: Number(process.env.SCALE_WRITES ?? 2000),
  writeDrivers: 200,
  drainDevices: Number(process.env.SCALE_DRAIN ?? 50),
  steps: parseSteps(process.env.SCALE_STEPS),
};

/**
 * Ten drivers per company and twenty per zone at every size, so one company's day holds about as many
 * parcels at 10M as at 100k: what grows is the history behind it (weeks more of it) and the number of
 * drivers, companies and zones, which is how a courier grows.
 */
export const SCALE_SIZES: Record<string, Partial<ScaleOptions>> = {
  '100k': { packages: 100_000, drivers: 200, companies: 20, zones: 10 },
  '1M': { packages: 1_000_000, drivers: 2_000, companies: 200, zones: 100 },
  '10M': { packages: 10_000_000, drivers: 10_000, companies: 1_000, zones: 500 },
};

export function sizeOptions(size: string, over: Partial<ScaleOptions> = {}): ScaleOptions {
  const preset = SCALE_SIZES[size];
  if (!preset) throw new Error(`unknown scale size ${size}: one of ${Object.keys(SCALE_SIZES).join(', ')}`);
  return { ...SCALE_DEFAULTS, ...preset, ...over };
}

/** Per driver: the delivered history, the active parcels and all of them. */
export function perDriver(o: ScaleOptions): { history: number; active: number; total: number } {
  const active = o.toScan + o.toDrain + o.onVan;
  const history = Math.max(0, Math.floor(o.packages / o.drivers) - active);
  return { history, active, total: history + active };
}
