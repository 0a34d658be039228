import { z } from 'zod';
import { RevokeSessionAnswer, SessionList } from '../../shared/schemas/auth';
import { IdParams, idParam } from '../../shared/schemas/common';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { listSessions, revokeSession } from '../services/auth/sessions';
import { audit } from '../services/audit/record';
import { assertMayManage, findEmployee } from '../services/org/employees';

const tags = ['Employee'];
const SessionParams = z.object({ id: idParam, session_id: idParam });
const OwnSessionParams = z.object({ session_id: idParam });

/** An account's signed-in devices, and signing one out (a lost or stolen phone), under the rank rule. */
export function sessionRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/employee/{id}/sessions/',
      tags,
      access: 'employee.manage',
      catalogue: [],
      params: IdParams,
      response: SessionList,
      summary: "An account's signed-in browsers and devices",
      description:
        'Live sessions with their kind, the X-Device-Id given at login and the last use (to the minute). Tokens are never shown.',
    },
    async ({ deps, user: me, params }) => {
      const row = await findEmployee(deps.db, me, params.id);
      assertMayManage(me, row);
      const results = await listSessions(deps, row.id, me.tokenId);
      return { count: results.length, results };
    },
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/employee/{id}/sessions/{session_id}/',
      tags,
      access: 'employee.manage',
      catalogue: [],
      params: SessionParams,
      response: RevokeSessionAnswer,
      summary: 'Sign out one device of an account',
      description:
        'Revokes the session and any other live session of the same device (same X-Device-Id); the device gets 401 on its next request.',
    },
    async ({ deps, user: me, params }) => {
      const row = await findEmployee(deps.db, me, params.id);
      assertMayManage(me, row);
      const revoked = await revokeSession(deps, row.id, params.session_id);
      await audit(deps.db, deps.clock.now(), me.id, 'user.session_revoke', `user:${row.id}`, { session: params.session_id, revoked });
      return { success: true, message: `Signed out ${revoked} session(s)`, revoked };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/auth/sessions/',
      tags: ['Auth'],
      access: 'authenticated',
      catalogue: [],
      response: SessionList,
      summary: 'Your own signed-in browsers and devices',
      description: '`current` marks the session of this request.',
    },
    async ({ deps, user: me }) => {
      const results = await listSessions(deps, me.id, me.tokenId);
      return { count: results.length, results };
    },
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/auth/sessions/{session_id}/',
      tags: ['Auth'],
      access: 'authenticated',
      catalogue: [],
      params: OwnSessionParams,
      response: RevokeSessionAnswer,
      summary: 'Sign out one of your own devices (a lost phone)',
    },
    async ({ deps, user: me, params }) => {
      const revoked = await revokeSession(deps, me.id, params.session_id);
      await audit(deps.db, deps.clock.now(), me.id, 'user.session_revoke', `user:${me.id}`, { session: params.session_id, revoked });
      return { success: true, message: `Signed out ${revoked} session(s)`, revoked };
    },
  );
}
