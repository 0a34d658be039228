import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { storedFile, throttle, user } from '../../db/schema/index';
import { ApiError } from '../../errors';
import { epochMs } from '../../http/sharedRateLimit';

/**
 * How much an owner may upload. A company (all its logins) has `uploadQuotaBytes` in total; an
 * account without one (drivers, staff) has `uploadAccountQuotaBytes` over the last
 * ACCOUNT_QUOTA_DAYS (their proof photos pile up legitimately for years; what a stolen token could
 * write is bounded per month). Both have `uploadBytesPerMinute`.
 *
 * Both are RESERVED before a byte is written, each in ONE conditional upsert of a `throttle` row
 * (the table every process shares), so parallel uploads in any number of processes cannot all pass
 * a check that only counted committed files:
 * - `upload-rate:<scope>`: bytes reserved in the current minute. A refused reservation adds nothing.
 * - `upload-held:<scope>`: bytes of uploads in flight (reserved, not yet committed or released);
 *   the quota check is committed files + held + this one. Released once the upload's unit settled.
 *   A process that dies mid-upload never releases: the held count restarts from zero when it is
 *   back to nothing or HOLD_MS after its first reservation, so a leak lasts at most that long.
 */
export const HOLD_MS = 15 * 60_000;
export const RATE_WINDOW_MS = 60_000;
export const ACCOUNT_QUOTA_DAYS = 30;

/** An upload's reservation; `release` once its row committed (or the upload failed). Safe to call twice. */
export interface UploadHold {
  release(): Promise<void>;
}

const MiB = (n: number) => Math.round(n / 1024 / 1024);

interface Scope {
  key: string;
  owned: SQL;
  since: number | null;
  quota: number;
  who: string;
  full: string;
}

async function scopeOf(deps: Deps, ownerId: number): Promise<Scope> {
  const owner = await deps.db.select({ company: user.company_id }).from(user).where(eq(user.id, ownerId)).get();
  const now = deps.clock.now();
  if (owner?.company != null) {
    const q = deps.config.uploadQuotaBytes;
    return {
      key: `company:${owner.company}`,
      owned: eq(user.company_id, owner.company),
      since: null,
      quota: q,
      who: 'Your company',
      full: `Your company's storage of ${MiB(q)} MiB is full; ask an administrator`,
    };
  }
  const q = deps.config.uploadAccountQuotaBytes;
  return {
    key: `user:${ownerId}`,
    owned: eq(user.id, ownerId),
    since: now - ACCOUNT_QUOTA_DAYS * 86_400_000,
    quota: q,
    who: 'You',
    full: `You uploaded ${MiB(q)} MiB in the last ${ACCOUNT_QUOTA_DAYS} days, the most one account may; ask an administrator`,
  };
}

/** Bytes of the scope's committed files, as a subquery the reserving statement evaluates itself. */
function committedBytes(scope: Scope): SQL {
  const where = scope.since == null ? scope.owned : and(scope.owned, gte(storedFile.created_at, scope.since));
  return sql`(select coalesce(sum(${storedFile.size}), 0) from ${storedFile} inner join ${user} on ${user.id} = ${storedFile.owner_id} where ${where})`;
}

async function committedNow(deps: Deps, scope: Scope): Promise<number> {
  const where = scope.since == null ? scope.owned : and(scope.owned, gte(storedFile.created_at, scope.since));
  const row = await deps.db
    .select({ n: sql<number | string>`coalesce(sum(${storedFile.size}), 0)` })
    .from(storedFile)
    .innerJoin(user, eq(user.id, storedFile.owner_id))
    .where(where)
    .get();
  return Number(row?.n ?? 0);
}

/**
 * Adds `size` to the row `key` when `fits` holds for the row as it stands (or inserts it); a row
 * whose `restart` condition holds starts again from `size`. Answers the row's window end, or
 * undefined when refused (nothing changed).
 */
async function reserve(
  deps: Deps,
  key: string,
  size: number,
  windowMs: number,
  restart: SQL,
  fits: (held: SQL) => SQL,
): Promise<number | undefined> {
  const now = deps.clock.now();
  const end = now + windowMs;
  const held = sql`case when ${restart} then 0 else ${throttle.n} end`;
  const row = await deps.db
    .insert(throttle)
    .values({ key, n: size, until_at: end, expires_at: end })
    .onConflictDoUpdate({
      target: throttle.key,
      set: {
        n: sql`case when ${restart} then ${epochMs(size)} else ${throttle.n} + ${epochMs(size)} end`,
        until_at: sql`case when ${restart} then ${epochMs(end)} else ${throttle.until_at} end`,
        expires_at: sql`case when ${restart} then ${epochMs(end)} else ${throttle.expires_at} end`,
      },
      setWhere: fits(held),
    })
    .returning({ until: throttle.until_at })
    .get();
  return row?.until;
}

/** Takes `size` back from the row `key` of window `until` (a later window is someone else's). */
async function giveBack(deps: Deps, key: string, size: number, until: number): Promise<void> {
  await deps.db
    .update(throttle)
    .set({ n: sql`${throttle.n} - ${epochMs(size)}` })
    .where(and(eq(throttle.key, key), eq(throttle.until_at, until), gte(throttle.n, size)))
    .run();
}

/**
 * Reserves `size` bytes of the owner's rate and quota, or refuses (429 over the rate, 413 over the
 * quota) with nothing reserved. Call before writing the bytes and outside a unit of work.
 */
export async function reserveUpload(deps: Deps, ownerId: number, size: number): Promise<UploadHold> {
  const scope = await scopeOf(deps, ownerId);
  const now = deps.clock.now();
  const limit = deps.config.uploadBytesPerMinute;
  const rateKey = `upload-rate:${scope.key}`;
  const tooFast = () =>
    new ApiError(429, 'rate_limited', `${scope.who} uploaded more than ${MiB(limit)} MiB in the last minute; try again shortly`, [], {
      retry_after: 60,
    });
  if (size > limit) throw tooFast();
  const rateUntil = await reserve(
    deps,
    rateKey,
    size,
    RATE_WINDOW_MS,
    sql`${throttle.until_at} <= ${now}`,
    (held) => sql`${held} + ${epochMs(size)} <= ${epochMs(limit)}`,
  );
  if (rateUntil === undefined) throw tooFast();

  const heldKey = `upload-held:${scope.key}`;
  const committed = committedBytes(scope);
  let heldUntil: number | undefined;
  // The first reservation of a scope inserts its row: the quota is checked here for that one.
  if ((await committedNow(deps, scope)) + size <= scope.quota) {
    heldUntil = await reserve(
      deps,
      heldKey,
      size,
      HOLD_MS,
      sql`(${throttle.until_at} <= ${now} or ${throttle.n} <= 0)`,
      (held) => sql`${committed} + ${held} + ${epochMs(size)} <= ${epochMs(scope.quota)}`,
    );
  }
  if (heldUntil === undefined) {
    await giveBack(deps, rateKey, size, rateUntil);
    throw new ApiError(413, 'payload_too_large', scope.full, [{ path: 'file', message: 'quota exceeded' }]);
  }
  let released = false;
  const until = heldUntil;
  return {
    async release() {
      if (released) return;
      released = true;
      await giveBack(deps, heldKey, size, until);
    },
  };
}

/** UPLOAD_QUOTA_MB (a company's total) and UPLOAD_ACCOUNT_QUOTA_MB (an account without one, per 30 days); unset = the defaults. */
export function uploadQuotas(env: Record<string, string | undefined>): { uploadQuotaBytes?: number; uploadAccountQuotaBytes?: number } {
  const mb = (name: string): number | undefined => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    if (!/^[1-9]\d{0,8}$/.test(value)) throw new Error(`${name} must be a whole number of MiB of at least 1, not "${value}"`);
    return Number(value) * 1024 * 1024;
  };
  const company = mb('UPLOAD_QUOTA_MB');
  const account = mb('UPLOAD_ACCOUNT_QUOTA_MB');
  return { ...(company ? { uploadQuotaBytes: company } : {}), ...(account ? { uploadAccountQuotaBytes: account } : {}) };
}
