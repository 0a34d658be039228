import { PackageWindowBody } from '../../../shared/schemas/dispatch';
import type { Db } from '../../db/client';
import type { Cell, Sheet } from '../packages/sheet';
import { setWindow } from './windows';

/**
 * Upload columns that are not Package fields (the spec's shape is exact): a parcel's delivery
 * window, time at the door and the skills it needs (`two-person; refrigerated`), stored beside it
 * (package_window).
 */
export const PLAN_COLUMNS = new Set(['window_start', 'window_end', 'service_s', 'skills']);

type Parsed = { value: ReturnType<typeof PackageWindowBody.parse> | null; errors: { path: string; message: string }[] };

/** A time cell as `HH:MM`: text (`9:30`, `09:30`), an Excel time (fraction of a day) or a date-time. */
function timeOf(cell: Cell): unknown {
  if (cell == null || (typeof cell === 'string' && cell.trim() === '')) return undefined;
  if (cell instanceof Date) return cell.toISOString().slice(11, 16);
  if (typeof cell === 'number' && cell >= 0 && cell < 1) {
    const minutes = Math.round(cell * 24 * 60);
    return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  }
  const text = String(cell).trim();
  const m = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(text);
  return m ? `${m[1]!.padStart(2, '0')}:${m[2]}` : text;
}

/** Each sheet row's window columns, checked like `PUT package/{id}/window/`; rows without them are absent. */
export function readPlanColumns(sheet: Sheet, headerName: (h: string) => string): Map<number, Parsed> {
  const at = new Map<string, number>();
  sheet.header.forEach((h, i) => {
    const n = headerName(h);
    if (PLAN_COLUMNS.has(n)) at.set(n, i);
  });
  const out = new Map<number, Parsed>();
  if (!at.size) return out;
  for (const r of sheet.rows) {
    const raw: Record<string, unknown> = {};
    const ws = at.has('window_start') ? timeOf(r.cells[at.get('window_start')!] ?? null) : undefined;
    const we = at.has('window_end') ? timeOf(r.cells[at.get('window_end')!] ?? null) : undefined;
    const sv = at.has('service_s') ? (r.cells[at.get('service_s')!] ?? null) : null;
    if (ws !== undefined) raw.window_start = ws;
    if (we !== undefined) raw.window_end = we;
    if (sv != null && String(sv).trim() !== '') raw.service_s = typeof sv === 'number' ? sv : Number(String(sv).trim());
    const sk = at.has('skills') ? (r.cells[at.get('skills')!] ?? null) : null;
    if (sk != null && String(sk).trim() !== '')
      raw.skills = String(sk)
        .split(/[;,]/)
        .map((x) => x.trim())
        .filter(Boolean);
    if (!Object.keys(raw).length) continue;
    const parsed = PackageWindowBody.safeParse(raw);
    const errors = parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'window', message: i.message }));
    if (parsed.success && (parsed.data.window_start == null) !== (parsed.data.window_end == null))
      errors.push({ path: 'window_end', message: 'give both window_start and window_end, or neither' });
    if (parsed.success && parsed.data.window_start && parsed.data.window_end && parsed.data.window_end <= parsed.data.window_start)
      errors.push({ path: 'window_end', message: 'must be later than window_start' });
    out.set(r.row, { value: errors.length ? null : (parsed.data ?? null), errors });
  }
  return out;
}

/** Stores the windows of the rows that were created. */
export async function saveUploadWindows(
  db: Db,
  now: number,
  parsed: Map<number, Parsed>,
  created: { row: number; id: number | null }[],
): Promise<void> {
  for (const c of created) {
    const w = parsed.get(c.row)?.value;
    if (c.id != null && w) await setWindow(db, now, c.id, w);
  }
}
