/**
 * The office's instants, written one way on every screen: the date as the browser's locale writes it
 * (en-AU: 28/11/2026) and the time on a 24-hour clock, as the dispatch board, the phone, the SMS and the
 * tracking page write theirs ("17:50"), so "5:50 pm" on one screen never sits beside "17:50" on the next.
 * The zone is the browser's: the office's own clock.
 */
const H23 = { hourCycle: 'h23' } as const;

const valid = (iso: string | null | undefined): iso is string => iso != null && iso !== '' && !Number.isNaN(Date.parse(iso));

/** "28 Nov 2026, 17:50:47": a record's full moment (detail panes). */
export function dateTime(iso: string | null | undefined, empty = '—'): string {
  return valid(iso) ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium', ...H23 }) : empty;
}

/** "28/11/26, 17:50": compact, for table cells. */
export function shortDateTime(iso: string | null | undefined, empty = '—'): string {
  return valid(iso) ? new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short', ...H23 }) : empty;
}

/** "17:50:47": the clock alone (a screen's "Updated …", a scan in today's list). */
export function clock(at: string | Date): string {
  return new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', ...H23 });
}

/** "28/11/2026": a day, or the day of an instant; a bare `YYYY-MM-DD` is that calendar day, not UTC's. */
export function day(iso: string | null | undefined, empty = '—'): string {
  if (!iso) return empty;
  const d = new Date(iso.length === 10 ? `${iso}T00:00:00` : iso);
  return Number.isNaN(d.getTime()) ? empty : d.toLocaleDateString();
}
