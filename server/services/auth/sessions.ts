import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Session } from '../../../shared/schemas/auth';
import { iso } from '../../clock';
import { changedRows } from '../../db/client';
import type { Deps } from '../../deps';
import { authToken } from '../../db/schema/index';
import { notFound } from '../../errors';

const live = (userId: number, now: number) =>
  and(eq(authToken.user_id, userId), isNull(authToken.revoked_at), gt(authToken.expires_at, now));

/** The account's sessions that still work (idle staff sessions included until they are used again). */
export async function listSessions(deps: Deps, userId: number, currentTokenId: number | null): Promise<z.output<typeof Session>[]> {
  const rows = await deps.db
    .select()
    .from(authToken)
    .where(live(userId, deps.clock.now()))
    .orderBy(desc(authToken.last_used_at), desc(authToken.id))
    .all();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind === 'mobile' ? 'mobile' : 'web',
    device_id: r.device_id,
    created_at: iso(r.created_at) ?? '',
    last_used_at: iso(r.last_used_at),
    expires_at: iso(r.expires_at) ?? '',
    current: r.id === currentTokenId,
  }));
}

/**
 * Signs out one device: the named session and every other live session of the same account that
 * the same device (X-Device-Id at login) holds, so a stolen phone is cut off even if it logged in
 * twice. Answers how many sessions stopped; an unknown or foreign session id is 404.
 */
export async function revokeSession(deps: Deps, userId: number, sessionId: number): Promise<number> {
  const now = deps.clock.now();
  const row = await deps.db
    .select()
    .from(authToken)
    .where(and(live(userId, now), eq(authToken.id, sessionId)))
    .get();
  if (!row) throw notFound(`Session ${sessionId} not found`);
  const which = row.device_id != null ? eq(authToken.device_id, row.device_id) : eq(authToken.id, row.id);
  return changedRows(
    await deps.db
      .update(authToken)
      .set({ revoked_at: now })
      .where(and(live(userId, now), which))
      .run(),
  );
}
