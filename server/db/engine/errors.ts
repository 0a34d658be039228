/** A constraint a write broke, whichever engine said so. */
export type ConstraintKind = 'unique' | 'foreign_key' | 'not_null' | 'check';

const SQLITE: Record<string, ConstraintKind> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign_key',
  SQLITE_CONSTRAINT_NOTNULL: 'not_null',
  SQLITE_CONSTRAINT_CHECK: 'check',
};
/** PostgreSQL's SQLSTATE class 23, integrity constraint violation. */
const POSTGRES: Record<string, ConstraintKind> = { 23505: 'unique', 23503: 'foreign_key', 23502: 'not_null', 23514: 'check' };

/** The driver's error code: drizzle wraps what the engine threw in a DrizzleQueryError (its `cause`). */
export function codeOf(err: unknown): string {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth += 1) {
    if ('code' in e && (e as { code: unknown }).code != null) return String((e as { code: unknown }).code);
  }
  return '';
}

export function constraintOf(err: unknown): ConstraintKind | null {
  const code = codeOf(err);
  if (!code) return null;
  return SQLITE[code] ?? POSTGRES[code] ?? (code.startsWith('SQLITE_CONSTRAINT') ? 'check' : null);
}

/** PostgreSQL undid the unit (serialization failure, deadlock) and it must run again from the start. */
export function isRetryable(err: unknown): boolean {
  const code = codeOf(err);
  return code === '40001' || code === '40P01';
}
