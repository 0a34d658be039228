import { IdParams } from '../../shared/schemas/common';
import { DepotTimeZone, DepotTimeZoneBody } from '../../shared/schemas/time';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { getDepotTimeZone, setDepotTimeZone } from '../services/time/zones';

const tags = ['Time zones'];

/** Issue 31: a depot in another zone than the business (Perth and Sydney). The business's own zone is on its profile. */
export function timeZoneRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/warehouse/{id}/time-zone/',
      tags,
      access: 'route.view',
      catalogue: [],
      params: IdParams,
      response: DepotTimeZone,
      summary: "A depot's time zone (its own, or the business's)",
    },
    ({ deps, params }) => getDepotTimeZone(deps, params.id),
  );

  defineRoute(
    app,
    {
      method: 'put',
      path: '/warehouse/{id}/time-zone/',
      tags,
      access: 'warehouse.manage',
      catalogue: [],
      params: IdParams,
      body: DepotTimeZoneBody,
      response: DepotTimeZone,
      summary: "Sets a depot's own time zone (IANA name); null = the business's",
      description:
        "Shifts and windows of parcels of this depot are read in its zone, and its days (today, reports, the driver's day) are its local days.",
    },
    ({ deps, params, body }) => setDepotTimeZone(deps, deps.clock.now(), params.id, body.time_zone),
  );
}
