/** A driver's week as a pattern of working days, turned into the dated shifts the planner reads. */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export interface DayPattern {
  works: boolean;
  start: string;
  end: string;
}
export type WeekPattern = DayPattern[];

export function defaultPattern(): WeekPattern {
  return WEEKDAYS.map((_, i) => ({ works: i < 5, start: '07:00', end: '15:00' }));
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The Monday on or before a calendar day (`YYYY-MM-DD`), as a calendar day: no time zone involved. */
export function mondayOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - back);
  return d.toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export interface PlannedShift {
  date: string;
  start_time: string;
  end_time: string;
}

/**
 * The shifts of `weeks` weeks from the Monday of `from`, one per working day. Days whose times are
 * not HH:MM or end before they start are named in `problems` instead (a night shift is two shifts).
 */
export function expandPattern(pattern: WeekPattern, from: string, weeks: number): { shifts: PlannedShift[]; problems: string[] } {
  const monday = mondayOf(from);
  const problems: string[] = [];
  pattern.forEach((p, i) => {
    if (!p.works) return;
    if (!HHMM.test(p.start) || !HHMM.test(p.end)) problems.push(`${WEEKDAYS[i]}: times as HH:MM, e.g. 07:30`);
    else if (p.end <= p.start) problems.push(`${WEEKDAYS[i]}: the shift ends before it starts`);
  });
  if (problems.length) return { shifts: [], problems };
  const shifts: PlannedShift[] = [];
  for (let w = 0; w < weeks; w++) {
    pattern.forEach((p, i) => {
      if (p.works) shifts.push({ date: addDays(monday, w * 7 + i), start_time: p.start, end_time: p.end });
    });
  }
  return { shifts, problems };
}
