import { TZDate, tzOffset } from '@date-fns/tz';

/**
 * The courier's own time (issue 31): every "today", day boundary, shift, window and arrival time is
 * local to a depot or recipient, named by an IANA zone ("Australia/Sydney"). Instants stay epoch ms /
 * UTC ISO (unambiguous); a local day is `YYYY-MM-DD` read in a zone the caller names.
 *
 * The zone rules (offsets, daylight saving) come from @date-fns/tz over the runtime's ICU data; this
 * module never adds or subtracts an offset it made up. Used by the server and the PWA alike.
 */

/** The courier's zone when neither configuration nor the business profile names one. */
export const DEFAULT_TIME_ZONE = 'Australia/Sydney';

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HHMM_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;
// IANA names only ("Area/Location" or "UTC"): offsets like "+10:00" do not follow daylight saving.
const NAME_RE = /^(UTC|[A-Za-z]+(\/[A-Za-z0-9_+-]+){1,2})$/;

/** True when `name` is an IANA zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  if (!NAME_RE.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const isDay = (s: string): boolean => {
  const m = DAY_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.toISOString().slice(0, 10) === s;
};

function dayParts(day: string): [number, number, number] {
  const m = DAY_RE.exec(day);
  if (!m) throw new RangeError(`not a day (YYYY-MM-DD): ${day}`);
  return [+m[1]!, +m[2]!, +m[3]!];
}

const two = (n: number) => String(n).padStart(2, '0');

/** Calendar arithmetic on a day (no zone involved: a day is a day). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = dayParts(day);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** Days from `from` to `to` (`to` - `from`, may be negative). */
export function daysBetween(from: string, to: string): number {
  const [y1, m1, d1] = dayParts(from);
  const [y2, m2, d2] = dayParts(to);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000);
}

/** The zone's wall clock at an instant. */
function wall(ms: number, zone: string): TZDate {
  return new TZDate(ms, zone);
}

/** The local day (`YYYY-MM-DD`) in `zone` at the instant `ms`. */
export function localDay(ms: number, zone: string): string {
  const t = wall(ms, zone);
  return `${String(t.getFullYear()).padStart(4, '0')}-${two(t.getMonth() + 1)}-${two(t.getDate())}`;
}

/** The local wall-clock time (`HH:MM`) in `zone` at the instant `ms`. */
export function localClock(ms: number, zone: string): string {
  const t = wall(ms, zone);
  return `${two(t.getHours())}:${two(t.getMinutes())}`;
}

/** Minutes east of UTC in `zone` at the instant `ms` (e.g. 660 in Sydney in January). */
export function offsetAt(ms: number, zone: string): number {
  return tzOffset(zone, new Date(ms));
}

/**
 * What to do with a wall time the zone skips (spring forward: 02:30 does not exist in Sydney on the
 * first Sunday of October) or shows twice (fall back: 02:30 happens twice on the first Sunday of April).
 * `later`/`earlier` pick an instant; `reject` throws a RangeError.
 */
export interface LocalTimePolicy {
  /** Default `later`: the wall time moved forward by the gap (02:30 becomes 03:30). */
  gap?: 'later' | 'earlier' | 'reject';
  /** Default `earlier`: the first of the two (still daylight time). */
  overlap?: 'earlier' | 'later' | 'reject';
}

export type LocalTimeKind = 'exact' | 'gap' | 'overlap';

/**
 * The instants at which `zone` shows `hhmm` on `day`: one (exact), two (overlap, earlier first) or none
 * (gap; then `around` holds the instants the wall time maps to under the offset before and after the change).
 */
export function resolveLocalTime(
  day: string,
  hhmm: string,
  zone: string,
): { kind: LocalTimeKind; instants: number[]; around: [number, number] } {
  const [y, mo, d] = dayParts(day);
  const hm = HHMM_RE.exec(hhmm);
  if (!hm) throw new RangeError(`not a time (HH:MM): ${hhmm}`);
  // The wall time written as if it were UTC; each candidate offset turns it into a real instant.
  const asUtc = Date.UTC(y, mo - 1, d, +hm[1]!, +hm[2]!);
  const before = offsetAt(asUtc - 86_400_000, zone);
  const after = offsetAt(asUtc + 86_400_000, zone);
  const candidates = [...new Set([before, after])].map((o) => asUtc - o * 60_000);
  const instants = candidates.filter((t) => asUtc - offsetAt(t, zone) * 60_000 === t).sort((a, b) => a - b);
  // In a gap, the offset before the change puts the wall time after it (moved forward), and vice versa.
  const around: [number, number] = [asUtc - after * 60_000, asUtc - before * 60_000];
  const kind: LocalTimeKind = instants.length === 1 ? 'exact' : instants.length > 1 ? 'overlap' : 'gap';
  return { kind, instants, around };
}

/** The instant at which `zone` shows `hhmm` (`HH:MM`) on `day`, gaps and overlaps resolved by `policy`. */
export function localTimeToInstant(day: string, hhmm: string, zone: string, policy: LocalTimePolicy = {}): number {
  const r = resolveLocalTime(day, hhmm, zone);
  if (r.kind === 'exact') return r.instants[0]!;
  if (r.kind === 'overlap') {
    const how = policy.overlap ?? 'earlier';
    if (how === 'reject') throw new RangeError(`${hhmm} happens twice on ${day} in ${zone} (clocks go back)`);
    return how === 'earlier' ? r.instants[0]! : r.instants[r.instants.length - 1]!;
  }
  const how = policy.gap ?? 'later';
  if (how === 'reject') throw new RangeError(`${hhmm} does not exist on ${day} in ${zone} (clocks go forward)`);
  return how === 'later' ? r.around[1] : r.around[0];
}

/** The first instant of the local `day` in `zone` (a zone whose clocks skip midnight starts the day at 01:00). */
export function startOfLocalDay(day: string, zone: string): number {
  return localTimeToInstant(day, '00:00', zone, { gap: 'later', overlap: 'earlier' });
}

/** `[start, end)` of the local `day` in `zone` as instants: 23, 24 or 25 hours long. */
export function localDayRange(day: string, zone: string): { start: number; end: number } {
  return { start: startOfLocalDay(day, zone), end: startOfLocalDay(addDays(day, 1), zone) };
}

/** `[start, end)` of the local days `from`..`to` (both included) in `zone`. */
export function localDaysRange(from: string, to: string, zone: string): { start: number; end: number } {
  return { start: startOfLocalDay(from, zone), end: startOfLocalDay(addDays(to, 1), zone) };
}

/** The local calendar month holding `day`: its first and last day. */
export function monthOf(day: string): { first: string; last: string } {
  const [y, m] = dayParts(day);
  return { first: `${day.slice(0, 7)}-01`, last: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10) };
}

/**
 * A fixed UTC offset (minutes east, e.g. 570) as a zone the library understands ("+09:30"). Only for
 * callers that send an offset rather than a zone (older driver apps); it ignores daylight saving.
 */
export function fixedOffsetZone(minutesEast: number): string {
  const m = Math.abs(Math.trunc(minutesEast));
  return `${minutesEast < 0 ? '-' : '+'}${two(Math.floor(m / 60))}:${two(m % 60)}`;
}
