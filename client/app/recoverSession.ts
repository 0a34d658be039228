import type { AuthUser } from '../../shared/schemas/auth';
import { DB_NAME } from '../driver/localKeys';
import { readFirstRows } from '../sync/firstRead';
import { endedToken, signIn } from './session';
import { canUseDepot } from './access';

/**
 * The web session lives in localStorage, which Chromium writes to disk lazily: a depot tablet that
 * crashes soon after login comes back without it, while its outbox (IndexedDB, written at once) still
 * holds the same session beside the scans it has not sent. With no signal the worker could not log in
 * again and the station would stand still, so the depot takes the session back from the outbox's copy,
 * and only then: unsent scans waiting, a role that may scan at the depot, and not a session this
 * device ended by logging out. The server still judges the token on the next send (a revoked one is
 * refused and the login asked for, the scans kept).
 */
export async function recoverDepotSession(): Promise<boolean> {
  const rows = await readFirstRows(DB_NAME);
  if (!rows?.token || !rows.user || rows.token === endedToken()) return false;
  if (!rows.outbox.some((r) => r.status !== 'rejected')) return false;
  if (!canUseDepot(rows.user.role as AuthUser['role'])) return false;
  signIn({ token: rows.token, user: rows.user as AuthUser, expiresAt: '' });
  return true;
}
