import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { auditLog, user } from '../../db/schema/index';
import { stringify } from 'csv-stringify/sync';
import { csvSafeRow } from '../../../shared/csvSafe';
import { iso } from '../../clock';
import { badRequest } from '../../errors';

/** Keys never written to the trail, whatever a caller passes: secrets and contact details. */
const SECRET_KEYS = /pass|token|secret|key|hash|phone|email/i;

function clean(details: Record<string, unknown> | undefined): string | null {
  if (!details) return null;
  const kept = Object.fromEntries(Object.entries(details).filter(([k, v]) => v !== undefined && !SECRET_KEYS.test(k)));
  return Object.keys(kept).length ? JSON.stringify(kept) : null;
}

// Most staff mutations write a line: built once per database.
const auditInsert = (db: Db) =>
  db
    .insert(auditLog)
    .values({
      at: sql.placeholder('at'),
      actor_id: sql.placeholder('actor_id'),
      action: sql.placeholder('action'),
      target: sql.placeholder('target'),
      details: sql.placeholder('details'),
    })
    .prepare();

/**
 * One line of the admin audit trail. Called inside the transaction of the action it describes,
 * so the action and its record commit (or roll back) together.
 */
export async function audit(
  db: Db,
  now: number,
  actorId: number | null,
  action: string,
  target: string,
  details?: Record<string, unknown>,
): Promise<void> {
  await prepared(db, 'audit.insert', auditInsert).run({ at: now, actor_id: actorId, action, target, details: clean(details) });
}

/** Columns that change on every write and say nothing a manager would ask about. */
const NOISE_KEYS = new Set(['updated_at', 'created_at']);

function visible(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([k, v]) => v !== undefined && !SECRET_KEYS.test(k) && !NOISE_KEYS.has(k)));
}

/**
 * `{ before, after }` of a row write, holding only the fields that changed (all visible fields for a
 * create or delete, where one side is null). Secrets and contact details never enter the trail, not
 * even nested here, since `clean` only looks at the top-level keys.
 */
export function changes(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  if (!before || !after) return { before: before && visible(before), after: after && visible(after) };
  const b = visible(before);
  const a = visible(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]));
  return { before: Object.fromEntries(keys.map((k) => [k, b[k] ?? null])), after: Object.fromEntries(keys.map((k) => [k, a[k] ?? null])) };
}

/** `entity` is the part of `target` before the colon (`company`, `user`, `wallet`...). */
export interface AuditFilter {
  action?: string;
  target?: string;
  entity?: string;
  actor?: number;
  from?: number;
  to?: number;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: { id: number; name: string } | null;
  action: string;
  target: string;
  details: Record<string, unknown> | null;
}

function where(f: AuditFilter): SQL | undefined {
  return and(
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.target ? eq(auditLog.target, f.target) : undefined,
    // Targets are `<entity>:<id>` and ';' sorts right after ':', so this range is the prefix, on the index.
    f.entity ? and(gte(auditLog.target, `${f.entity}:`), lt(auditLog.target, `${f.entity};`)) : undefined,
    f.actor != null ? eq(auditLog.actor_id, f.actor) : undefined,
    f.from != null ? gte(auditLog.at, f.from) : undefined,
    f.to != null ? lt(auditLog.at, f.to) : undefined,
  );
}

async function entries(db: Db, w: SQL | undefined, limit: number, offset: number): Promise<AuditEntry[]> {
  const rows = await db
    .select({ a: auditLog, name: user.name })
    .from(auditLog)
    .leftJoin(user, eq(user.id, auditLog.actor_id))
    .where(w)
    .orderBy(desc(auditLog.id))
    .limit(limit)
    .offset(offset)
    .all();
  return rows.map(({ a, name }) => ({
    id: a.id,
    at: iso(a.at) ?? '',
    actor: a.actor_id != null ? { id: a.actor_id, name: name ?? '' } : null,
    action: a.action,
    target: a.target,
    details: a.details ? (JSON.parse(a.details) as Record<string, unknown>) : null,
  }));
}

/** Newest first. */
export async function auditPage(db: Db, f: AuditFilter, page: number, pageSize: number): Promise<{ count: number; results: AuditEntry[] }> {
  const w = where(f);
  const count =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(auditLog)
        .where(w)
        .get()
    )?.n ?? 0;
  return { count, results: await entries(db, w, pageSize, (page - 1) * pageSize) };
}

/** An export is one answer held in memory: past this many lines the caller must narrow the filters. */
export const AUDIT_EXPORT_MAX = 50_000;

/** Every line the filters match, newest first, as CSV with formula-safe cells (before/after as JSON text). */
export async function auditCsv(db: Db, f: AuditFilter): Promise<string> {
  const w = where(f);
  const count =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(auditLog)
        .where(w)
        .get()
    )?.n ?? 0;
  if (count > AUDIT_EXPORT_MAX) throw badRequest(`${count} audit lines match; narrow the filters to at most ${AUDIT_EXPORT_MAX}`);
  const rows = (await entries(db, w, AUDIT_EXPORT_MAX, 0)).map((e) => {
    const { before, after, ...rest } = e.details ?? {};
    const json = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));
    return csvSafeRow([
      e.id,
      e.at,
      e.actor?.id ?? '',
      e.actor?.name ?? '',
      e.action,
      e.target,
      json(before),
      json(after),
      Object.keys(rest).length ? JSON.stringify(rest) : '',
    ]);
  });
  return stringify(rows, {
    header: true,
    columns: ['id', 'at', 'actor_id', 'actor_name', 'action', 'target', 'before', 'after', 'details'],
  });
}
