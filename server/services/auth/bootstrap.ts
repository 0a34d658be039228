import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import { auditLog, authToken, user } from '../../db/schema/index';
import { hashPassword } from './passwords';
import { seedFailureReasons } from '../packages/failureReasons';

export const MIN_ADMIN_PASSWORD = 8;

/** What start-up did with ADMIN_EMAIL/ADMIN_PASSWORD, so main.ts can say it in one line. */
export type BootstrapOutcome =
  | { kind: 'not_set' }
  | { kind: 'created'; email: string }
  /** Users exist: the variables are ignored (they only ever create the first user). */
  | { kind: 'ignored'; email: string; users: number };

/** First start: with no user yet and ADMIN_EMAIL/ADMIN_PASSWORD set, create the super admin. */
export async function bootstrapSuperAdmin(db: Db, clock: Clock, email?: string, password?: string): Promise<BootstrapOutcome> {
  if (!email || !password) return { kind: 'not_set' };
  const normalized = email.trim().toLowerCase();
  const n =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(user)
        .get()
    )?.n ?? 0;
  if (n > 0) return { kind: 'ignored', email: normalized, users: n };
  if (password.length < MIN_ADMIN_PASSWORD) throw new Error(`ADMIN_PASSWORD must be at least ${MIN_ADMIN_PASSWORD} characters`);
  const now = clock.now();
  const hash = await hashPassword(password);
  await db.$engine.units().run(async () => {
    await db
      .insert(user)
      .values({ name: 'Super Admin', email: normalized, role: 'super_admin', password_hash: hash, created_at: now, updated_at: now })
      .run();
    // A new courier: its drivers can record a failed delivery from day one (issue 36).
    await seedFailureReasons(db, now);
  });
  return { kind: 'created', email: normalized };
}

/** Kept for callers that only need the created e-mail (null otherwise). */
export async function ensureSuperAdmin(db: Db, clock: Clock, email?: string, password?: string): Promise<string | null> {
  const r = await bootstrapSuperAdmin(db, clock, email, password);
  return r.kind === 'created' ? r.email : null;
}

/** The start-up log line for an outcome (null: nothing worth saying). */
export function bootstrapMessage(r: BootstrapOutcome): string | null {
  if (r.kind === 'created') return `[courier] created super admin ${r.email}`;
  if (r.kind === 'ignored') {
    return (
      `[courier] ADMIN_EMAIL/ADMIN_PASSWORD ignored: the database already has ${r.users} user(s), and these variables only create the first one. ` +
      `To create or reset an admin: ADMIN_EMAIL=${r.email} ADMIN_PASSWORD=<new password> npm run admin`
    );
  }
  return null;
}

export type AdminOutcome = { kind: 'created' | 'reset'; email: string; id: number };

/**
 * `npm run admin`: create a super admin, or reset an existing admin's password (re-activating the
 * account and ending its sessions). A non-admin account with that e-mail is refused rather than
 * silently promoted: that is a permission change to make in the app, by a person.
 */
export async function createOrResetAdmin(db: Db, clock: Clock, email: string, password: string): Promise<AdminOutcome> {
  const normalized = email.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+$/.test(normalized)) throw new Error(`not an e-mail address: ${email}`);
  if (password.length < MIN_ADMIN_PASSWORD) throw new Error(`the password must be at least ${MIN_ADMIN_PASSWORD} characters`);
  const hash = await hashPassword(password);
  const now = clock.now();
  const tx = db;
  return db.$engine.units().run(async () => {
    const existing = await tx.select().from(user).where(eq(user.email, normalized)).get();
    if (existing) {
      if (existing.role !== 'super_admin' && existing.role !== 'admin') {
        throw new Error(`${normalized} is a ${existing.role} account, not an admin: change its role in the app or choose another e-mail`);
      }
      await tx
        .update(user)
        .set({ password_hash: hash, is_active: true, deleted_at: null, updated_at: now })
        .where(eq(user.id, existing.id))
        .run();
      await tx
        .update(authToken)
        .set({ revoked_at: now })
        .where(and(eq(authToken.user_id, existing.id), isNull(authToken.revoked_at)))
        .run();
      await tx
        .insert(auditLog)
        .values({
          at: now,
          actor_id: null,
          action: 'user.admin_reset',
          target: `user:${existing.id}`,
          details: JSON.stringify({ via: 'npm run admin' }),
        })
        .run();
      return { kind: 'reset' as const, email: normalized, id: existing.id };
    }
    const row = await tx
      .insert(user)
      .values({
        name: 'Super Admin',
        email: normalized,
        role: 'super_admin',
        password_hash: hash,
        created_at: now,
        updated_at: now,
      })
      .returning({ id: user.id })
      .get();
    await tx
      .insert(auditLog)
      .values({
        at: now,
        actor_id: null,
        action: 'user.admin_create',
        target: `user:${row.id}`,
        details: JSON.stringify({ via: 'npm run admin', role: 'super_admin' }),
      })
      .run();
    await seedFailureReasons(tx, now);
    return { kind: 'created' as const, email: normalized, id: row.id };
  });
}
