import type { Context } from 'hono';
import { forbidden, unauthenticated } from '../../errors';
import type { SessionUser } from '../../services/auth/session';
import { loadSession, touchSession } from '../../services/auth/session';
import type { AppEnv } from '../env';
import type { Access } from '../routeTypes';

/** The step of a route that says who calls and whether they may: the session, then the access rule. */
export async function callerOf(c: Context<AppEnv>, access: Access): Promise<SessionUser | undefined> {
  const maybeUser = await (access === 'public' ? tryAuthenticate(c) : authenticate(c));
  checkAccess(maybeUser, access);
  return maybeUser;
}

async function authenticate(c: Context<AppEnv>): Promise<SessionUser | undefined> {
  const cached = c.get('user');
  if (cached) return cached;
  const header = c.req.header('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{16,256})$/i.exec(header.trim());
  if (!match?.[1]) throw unauthenticated('Malformed Authorization header: expected "Bearer <token>"');
  const deps = c.get('deps');
  const now = deps.clock.now();
  const user = await loadSession(deps.db, match[1], now, deps.permissionSource, deps.config.staffIdleMs);
  if (!user) throw unauthenticated('Invalid or expired token');
  // In the group commit (one fsync shared with other writes); a failed touch only shortens the idle clock.
  if (user.stale) deps.writes.run(() => touchSession(deps.db, user.tokenId, now), { small: true }).catch(() => undefined);
  c.set('user', user);
  return user;
}

/** A public route may be called with a token it does not need: a bad one is no caller, not a 401. */
async function tryAuthenticate(c: Context<AppEnv>): Promise<SessionUser | undefined> {
  try {
    return await authenticate(c);
  } catch {
    return undefined;
  }
}

export function checkAccess(user: SessionUser | undefined, access: Access): void {
  if (access === 'public') return;
  if (!user) throw unauthenticated();
  if (access === 'authenticated') return;
  if (typeof access === 'string') {
    if (!user.permissions.has(access)) throw forbidden(`You need the "${access}" permission`);
    return;
  }
  if (!access.roles.includes(user.role)) throw forbidden(`Only ${access.roles.join(', ')} may do this`);
}
