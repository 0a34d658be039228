import {
  LatestPositionsAnswer,
  PositionBatchAnswer,
  PositionBatchBody,
  TrailAnswer,
  TrailParams,
  TrailQuery,
} from '../../../shared/schemas/routes';
import { iso } from '../../clock';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { latestPositions, recordPositions, shapePosition, trail } from '../../services/routes/positions';
import { refreshEtasFromPosition, startRouteOnPosition } from '../../services/routes/live';
import { STAFF, STAFF_AND_DRIVERS, whichDriver } from './common';

const tags = ['Driver Lat-Long'];

export function positionRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/driver-position/',
      tags,
      access: { roles: ['driver'] },
      body: PositionBatchBody,
      response: PositionBatchAnswer,
      catalogue: ops('mobile/Dashboard', 'Tracking'),
      summary: "A driver's phone reports a batch of positions (queued offline, sent with an Idempotency-Key)",
      description:
        'Up to 500 readings `{ latitude, longitude, accuracy?, occurred_at }`. A reading already stored (same driver and occurred_at) is counted in `duplicates` and not stored again. ' +
        "The phone sends positions only while its driver is on duty: the first starts today's planned delivery route when none is running; " +
        "the running routes' remaining ETAs follow the van, each route at most once a minute.",
    },
    async ({ deps, user, body, device }) => {
      const r = await recordPositions(deps, user.id, body, device?.id ?? null);
      // A started route's ETAs were just computed from this position; the others at most once a minute.
      if (r.stored && (await startRouteOnPosition(deps, user)) == null) await refreshEtasFromPosition(deps, user.id);
      return { success: true, message: `${r.stored} position(s) stored`, ...r };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/driver-position/',
      tags,
      access: { roles: STAFF },
      response: LatestPositionsAnswer,
      catalogue: ops('web/Driver Lat-Long Manage', 'Get'),
      summary: "Each driver's latest reported position (by device time)",
    },
    async ({ deps }) => ({
      success: true,
      results: (await latestPositions(deps.db)).map((r) => ({ driver: { id: r.p.driver_id, name: r.name }, position: shapePosition(r.p) })),
    }),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/driver-position/{driver_id}/trail/',
      tags,
      access: { roles: STAFF_AND_DRIVERS },
      params: TrailParams,
      query: TrailQuery,
      response: TrailAnswer,
      catalogue: ops('web/Driver Lat-Long Manage', 'Get'),
      summary: "A driver's positions in a period, oldest first (default the last 24 hours, at most 31 days; a driver: only their own)",
      description:
        '`from`/`to` are ISO 8601 times with offset. At most 10,000 points; `truncated` says more exist (ask for a shorter period).',
    },
    async ({ deps, user, params, query }) => {
      const driver = (await whichDriver(deps.db, user, params.driver_id)) as { id: number; name: string };
      const t = await trail(deps.db, driver.id, deps.clock.now(), query.from, query.to);
      return {
        success: true,
        driver,
        from: iso(t.from) ?? '',
        to: iso(t.to) ?? '',
        truncated: t.truncated,
        results: t.rows.map(shapePosition),
      };
    },
  );
}
