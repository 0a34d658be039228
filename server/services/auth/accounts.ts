import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { authToken, company, passwordReset, user } from '../../db/schema/index';
import { ApiError, unauthenticated } from '../../errors';
import type { AuthUser } from '../../../shared/schemas/auth';
import type { Role } from '../../../shared/roles';
import { iso } from '../../clock';
import { hashPassword, verifyPassword } from './passwords';
import { hashToken, newToken } from './tokens';
import { atomically } from '../../db/atomically';

export type TokenKind = 'web' | 'mobile';

export function authUser(row: { id: number; name: string; email: string; role: string; company_id: number | null }): AuthUser {
  return { id: row.id, name: row.name, email: row.email, role: row.role as Role, company: row.company_id };
}

/**
 * Checks a password login. The attempt is counted (per address, per account and address, per
 * account) before the password is hashed, so parallel guesses are refused as they arrive; unknown
 * e-mails cost the same hash work as known ones.
 */
export async function login(deps: Deps, email: string, password: string, kind: TokenKind, client: string, deviceId?: string) {
  const now = deps.clock.now();
  const attempt = await deps.throttle.begin('login', email, client, now);
  const row = await findUserByEmail(deps, email);
  const ok = await verifyPassword(password, row?.password_hash);
  if (!row || !ok) throw unauthenticated('Wrong e-mail or password');
  await attempt.succeeded();
  if (!row.is_active) throw new ApiError(403, 'forbidden', 'This account is disabled');
  if (row.company_id != null) {
    const co = await deps.db.select().from(company).where(eq(company.id, row.company_id)).get();
    if (!co || co.deleted_at != null || co.status !== 'active') {
      throw new ApiError(
        403,
        'forbidden',
        co?.status === 'pending' ? 'Your company is waiting for approval' : 'Your company account is suspended',
      );
    }
  }
  if (kind === 'web' && row.role === 'driver') throw new ApiError(403, 'forbidden', 'Drivers sign in with the driver app');
  const { token, hash } = newToken();
  const expires = now + deps.config.tokenTtlMs;
  await deps.db
    .insert(authToken)
    .values({
      user_id: row.id,
      token_hash: hash,
      kind,
      expires_at: expires,
      created_at: now,
      last_used_at: now,
      device_id: deviceId ?? null,
    })
    .run();
  return { success: true, message: 'Logged in', token, expires_at: iso(expires) ?? '', user: authUser(row) };
}

export async function revokeToken(deps: Deps, tokenId: number): Promise<void> {
  await deps.db.update(authToken).set({ revoked_at: deps.clock.now() }).where(eq(authToken.id, tokenId)).run();
}

export async function revokeAllTokens(deps: Deps, userId: number, exceptTokenId?: number): Promise<void> {
  const where = exceptTokenId != null ? and(eq(authToken.user_id, userId), ne(authToken.id, exceptTokenId)) : eq(authToken.user_id, userId);
  await deps.db
    .update(authToken)
    .set({ revoked_at: deps.clock.now() })
    .where(and(where, isNull(authToken.revoked_at)))
    .run();
}

/** Always answers the same way, so the endpoint does not reveal which e-mails have accounts. */
export async function requestReset(deps: Deps, email: string, baseUrl: string): Promise<void> {
  const row = await deps.db
    .select()
    .from(user)
    .where(and(eq(user.email, email), isNull(user.deleted_at)))
    .get();
  if (!row || !row.is_active) return;
  const now = deps.clock.now();
  const { token, hash } = newToken();
  await deps.db
    .insert(passwordReset)
    .values({ user_id: row.id, token_hash: hash, expires_at: now + deps.config.resetTtlMs, created_at: now })
    .run();
  const link = `${baseUrl}/#/reset-password?token=${token}`;
  await deps.mailer.send({
    to: row.email,
    subject: 'Reset your Courier password',
    body: `Someone asked to reset the password of ${row.email}.\n\nReset token: ${token}\nLink: ${link}\n\nIt works once, for ${Math.round(deps.config.resetTtlMs / 60000)} minutes. If it was not you, ignore this mail.`,
  });
}

export async function resetPassword(deps: Deps, token: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  const now = deps.clock.now();
  await atomically(deps, async () => {
    const row = await deps.db
      .select()
      .from(passwordReset)
      .where(eq(passwordReset.token_hash, hashToken(token)))
      .get();
    if (!row || row.used_at != null || row.expires_at <= now) {
      throw new ApiError(400, 'validation_error', 'This reset token is invalid, used or expired', [
        { path: 'token', message: 'invalid or expired' },
      ]);
    }
    await deps.db.update(passwordReset).set({ used_at: now }).where(eq(passwordReset.id, row.id)).run();
    await deps.db.update(user).set({ password_hash: hash, updated_at: now }).where(eq(user.id, row.user_id)).run();
    await revokeAllTokens(deps, row.user_id);
  });
}

/**
 * Changes a password after checking the current one. The caller counted the attempt (LoginThrottle)
 * first. `userId` null (an unknown e-mail on the session-less path) does the same hash work and
 * answers the same error as a wrong password.
 */
export async function changePassword(
  deps: Deps,
  userId: number | null,
  oldPassword: string,
  newPassword: string,
  keepTokenId?: number,
): Promise<void> {
  const row = userId == null ? undefined : await deps.db.select().from(user).where(eq(user.id, userId)).get();
  const ok = await verifyPassword(oldPassword, row?.password_hash);
  if (!row || !ok) {
    throw new ApiError(400, 'validation_error', 'The current password is wrong', [{ path: 'old_password', message: 'wrong password' }]);
  }
  if (oldPassword === newPassword) {
    throw new ApiError(400, 'validation_error', 'The new password must differ from the current one', [
      { path: 'new_password', message: 'same as current' },
    ]);
  }
  const hash = await hashPassword(newPassword);
  await atomically(deps, async () => {
    await deps.db.update(user).set({ password_hash: hash, updated_at: deps.clock.now() }).where(eq(user.id, row.id)).run();
    await revokeAllTokens(deps, row.id, keepTokenId);
  });
}

export function findUserByEmail(deps: Deps, email: string) {
  return deps.db
    .select()
    .from(user)
    .where(and(eq(user.email, email), isNull(user.deleted_at)))
    .get();
}
