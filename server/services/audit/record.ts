import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { auditLog, user } from '../../db/schema/index';
import { iso } from '../../clock';

/** Keys never written to the trail, whatever a caller passes: secrets and contact details. */
const SECRET_KEYS = /pass|token|secret|key|hash|phone|email/i;

function clean(details: Record<string, unknown> | undefined): string | null {
  if (!details) return null;
  const kept = Object.fromEntries(Object.entries(details).filter(([k, v]) => v !== undefined && !SECRET_KEYS.test(k)));
  return Object.keys(kept).length ? JSON.stringify(kept) : null;
}

// Most staff mutations write a line: built once per database.
const auditInsert = (db: Db) => db.insert(auditLog).values({
  at: sql.placeholder('at'), actor_id: sql.placeholder('actor_id'), action: sql.placeholder('action'), target: sql.placeholder('target'),
  details: sql.placeholder('details'),
}).prepare();

/**
 * One line of the admin audit trail. Called inside the transaction of the action it describes,
 * so the action and its record commit (or roll back) together.
 */
export function audit(db: Db, now: number, actorId: number | null, action: string, target: string, details?: Record<string, unknown>): void {
  prepared(db, 'audit.insert', auditInsert).run({ at: now, actor_id: actorId, action, target, details: clean(details) });
}

export interface AuditFilter { action?: string; target?: string; actor?: number; from?: number; to?: number }

export interface AuditEntry {
  id: number; at: string; actor: { id: number; name: string } | null; action: string; target: string; details: Record<string, unknown> | null;
}

function where(f: AuditFilter): SQL | undefined {
  return and(
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.target ? eq(auditLog.target, f.target) : undefined,
    f.actor != null ? eq(auditLog.actor_id, f.actor) : undefined,
    f.from != null ? gte(auditLog.at, f.from) : undefined,
    f.to != null ? lt(auditLog.at, f.to) : undefined,
  );
}

/** Newest first. */
export function auditPage(db: Db, f: AuditFilter, page: number, pageSize: number): { count: number; results: AuditEntry[] } {
  const w = where(f);
  const count = db.select({ n: sql<number>`count(*)` }).from(auditLog).where(w).get()?.n ?? 0;
  const rows = db.select({ a: auditLog, name: user.name }).from(auditLog).leftJoin(user, eq(user.id, auditLog.actor_id))
    .where(w).orderBy(desc(auditLog.id)).limit(pageSize).offset((page - 1) * pageSize).all();
  return {
    count,
    results: rows.map(({ a, name }) => ({
      id: a.id, at: iso(a.at) ?? '', actor: a.actor_id != null ? { id: a.actor_id, name: name ?? '' } : null, action: a.action, target: a.target,
      details: a.details ? (JSON.parse(a.details) as Record<string, unknown>) : null,
    })),
  };
}
