import { eq } from 'drizzle-orm';
import { pincodeCode, type BulkRowReport } from '../../../../shared/schemas/geo';
import { pincode, suburb } from '../../../db/schema/index';
import type { Deps } from '../../../deps';
import { ApiError } from '../../../errors';
import { key, loadReferences, pincodeKey, type ReferenceIndex, type SuburbRef } from './references';
import type { Sheet, SheetRow } from './sheet';

/** Header names people actually use for each column, compared without case, spaces or underscores. */
const ALIASES = {
  code: ['code', 'pincode', 'postcode', 'pin', 'zip', 'zipcode', 'postalcode'],
  suburb: ['suburb', 'suburbname', 'suburbid', 'locality'],
  state: ['state', 'statename', 'statecode', 'stateid'],
  zone: ['zone', 'zonename', 'zonecode', 'zoneid'],
} as const;
type Column = keyof typeof ALIASES;
type Columns = Record<Column, number | undefined>;

export interface UploadOutcome {
  created: number;
  updated: number;
  rejected: number;
  report: BulkRowReport[];
}

interface Plan {
  line: number;
  code: string;
  suburb: SuburbRef;
  zoneId: number | undefined;
  existing: { id: number; deleted_at: number | null } | undefined;
}

const squash = (s: string) => s.toLowerCase().replace(/[\s_\-.]/g, '');

function columnsOf(header: string[]): Columns {
  const names = header.map(squash);
  const find = (c: Column) => {
    const i = names.findIndex((n) => (ALIASES[c] as readonly string[]).includes(n));
    return i < 0 ? undefined : i;
  };
  const cols: Columns = { code: find('code'), suburb: find('suburb'), state: find('state'), zone: find('zone') };
  const missing = (['code', 'suburb'] as const).filter((c) => cols[c] === undefined);
  if (missing.length) {
    throw new ApiError(
      400,
      'validation_error',
      `The header row lacks the column(s) ${missing.join(', ')}; found: ${header.join(', ')}`,
      missing.map((c) => ({ path: 'file', message: `missing column ${c}` })),
    );
  }
  return cols;
}

class Rejection extends Error {}
function reject(reason: string): never {
  throw new Rejection(reason);
}
const isId = (s: string) => /^\d{1,15}$/.test(s);

function resolveState(idx: ReferenceIndex, cell: string): number | undefined {
  if (!cell) return undefined;
  if (isId(cell)) return idx.stateById.get(Number(cell))?.id ?? reject(`unknown state ${cell}`);
  const found = idx.statesByKey.get(key(cell)) ?? [];
  if (found.length > 1) reject(`state "${cell}" is ambiguous (ids ${found.map((s) => s.id).join(', ')}); give the state id`);
  return found[0]?.id ?? reject(`unknown state "${cell}"`);
}

function resolveSuburb(idx: ReferenceIndex, cell: string, stateId: number | undefined): SuburbRef {
  if (!cell) return reject('suburb is required');
  const where = stateId === undefined ? '' : ` in state ${stateId}`;
  if (isId(cell)) {
    const found = idx.suburbById.get(Number(cell)) ?? reject(`unknown suburb ${cell}`);
    if (found.deleted_at != null) reject(`suburb ${cell} is archived`);
    if (stateId !== undefined && found.state_id !== stateId) reject(`suburb ${cell} is not${where}`);
    return found;
  }
  const named = (idx.suburbsByName.get(key(cell)) ?? []).filter((s) => stateId === undefined || s.state_id === stateId);
  const live = named.filter((s) => s.deleted_at == null);
  if (!live.length) return reject(named.length ? `suburb "${cell}"${where} is archived` : `unknown suburb "${cell}"${where}`);
  if (live.length > 1) {
    reject(
      `suburb "${cell}"${where} matches several suburbs (ids ${live.map((s) => s.id).join(', ')}); give the ${stateId === undefined ? 'state or the ' : ''}suburb id`,
    );
  }
  return live[0];
}

function resolveZone(idx: ReferenceIndex, cell: string): number | undefined {
  if (!cell) return undefined;
  const found = isId(cell) ? [idx.zoneById.get(Number(cell))].filter((z) => z !== undefined) : (idx.zonesByKey.get(key(cell)) ?? []);
  if (found.length > 1) reject(`zone "${cell}" is ambiguous (ids ${found.map((z) => z.id).join(', ')}); give the zone id`);
  const zone = found[0] ?? reject(`unknown zone "${cell}"`);
  if (zone.deleted_at != null) reject(`zone "${cell}" is archived`);
  return zone.id;
}

interface Seen {
  pincodes: Map<string, number>;
  zones: Map<number, { zone: number; line: number }>;
}

function planRow(idx: ReferenceIndex, cols: Columns, row: SheetRow, seen: Seen): Plan {
  const cell = (c: Column) => (cols[c] === undefined ? '' : (row.cells[cols[c]] ?? '').trim());
  const parsed = pincodeCode.safeParse(cell('code'));
  if (!parsed.success)
    reject(cell('code') ? `code "${cell('code')}": ${parsed.error.issues[0]?.message ?? 'invalid'}` : 'code is required');
  const code = parsed.data;
  const stateId = resolveState(idx, cell('state'));
  const sub = resolveSuburb(idx, cell('suburb'), stateId);
  const zoneId = resolveZone(idx, cell('zone'));
  const k = pincodeKey(code, sub.id);
  const twin = seen.pincodes.get(k);
  if (twin !== undefined) reject(`repeats row ${twin} (pincode ${code} of suburb ${sub.id})`);
  const earlier = seen.zones.get(sub.id);
  if (zoneId !== undefined && earlier && earlier.zone !== zoneId)
    reject(`row ${earlier.line} put suburb ${sub.id} in zone ${earlier.zone}, this row in zone ${zoneId}`);
  seen.pincodes.set(k, row.line);
  if (zoneId !== undefined && !earlier) seen.zones.set(sub.id, { zone: zoneId, line: row.line });
  return { line: row.line, code, suburb: sub, zoneId, existing: idx.pincodes.get(k) };
}

/**
 * Reads every row against the current data, then applies either all of them or, with `partial`,
 * the rows that passed; a refused upload changes nothing and answers 400 with the full report.
 * Runs inside the request's transaction, so a failure half-way leaves nothing behind.
 */
export async function uploadPincodes(deps: Deps, sheet: Sheet, partial: boolean): Promise<UploadOutcome> {
  const cols = columnsOf(sheet.header);
  if (!sheet.rows.length)
    throw new ApiError(400, 'validation_error', 'The file has no data rows', [{ path: 'file', message: 'no data rows' }]);
  const idx = await loadReferences(deps.db);
  const seen: Seen = { pincodes: new Map(), zones: new Map() };
  const report: BulkRowReport[] = [];
  const plans: Plan[] = [];
  for (const row of sheet.rows) {
    try {
      const plan = planRow(idx, cols, row, seen);
      plans.push(plan);
      report.push({
        row: row.line,
        status: plan.existing ? 'updated' : 'created',
        reason: null,
        code: plan.code,
        id: plan.existing?.id ?? null,
      });
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      report.push({ row: row.line, status: 'rejected', reason: err.message, code: null, id: null });
    }
  }
  const count = (s: BulkRowReport['status']) => report.filter((r) => r.status === s).length;
  const outcome = { created: count('created'), updated: count('updated'), rejected: count('rejected'), report };
  if (outcome.rejected && !partial) {
    const refused = report.filter((r) => r.status === 'rejected');
    throw new ApiError(
      400,
      'validation_error',
      `${outcome.rejected} of ${report.length} row(s) rejected; nothing was applied (send ?partial=true to apply the other rows)`,
      refused.slice(0, 100).map((r) => ({ path: `row ${r.row}`, message: r.reason ?? 'rejected' })),
      { applied: false, ...outcome },
    );
  }
  await applyPlans(deps, plans, report);
  return outcome;
}

async function applyPlans(deps: Deps, plans: Plan[], report: BulkRowReport[]): Promise<void> {
  const now = deps.clock.now();
  const byLine = new Map(report.map((r) => [r.row, r]));
  const zoned = new Set<number>();
  for (const p of plans) {
    const entry = byLine.get(p.line);
    if (p.existing) {
      await deps.db.update(pincode).set({ deleted_at: null, updated_at: now }).where(eq(pincode.id, p.existing.id)).run();
      if (entry && p.existing.deleted_at != null) entry.reason = 'restored from the archive';
    } else {
      const row = await deps.db
        .insert(pincode)
        .values({ code: p.code, suburb_id: p.suburb.id, created_at: now, updated_at: now })
        .returning({ id: pincode.id })
        .get();
      if (entry) entry.id = row.id;
    }
    if (p.zoneId !== undefined && p.suburb.zone_id !== p.zoneId && !zoned.has(p.suburb.id)) {
      await deps.db.update(suburb).set({ zone_id: p.zoneId, updated_at: now }).where(eq(suburb.id, p.suburb.id)).run();
      zoned.add(p.suburb.id);
      if (entry) entry.reason = [entry.reason, `suburb ${p.suburb.id} moved to zone ${p.zoneId}`].filter(Boolean).join('; ');
    }
  }
}
