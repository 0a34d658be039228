import { z } from 'zod';
import { IdParams } from '../../../shared/schemas/common';
import {
  AmendCommit,
  AmendProposal,
  AmendRequest,
  CommitBody,
  CompanyServiceTime,
  CompanyServiceTimeBody,
  DepotPosition,
  DepotPositionBody,
  PackageWindow,
  PackageWindowBody,
  PlanJob,
  PlanRequest,
  RouteEtas,
  StopEtaRecord,
} from '../../../shared/schemas/dispatch';
import { RouteRecord } from '../../../shared/schemas/routes';
import { forbidden, notFound } from '../../errors';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { depotPositions, setDepotPosition } from '../../services/dispatch/depots';
import { today } from '../../services/time/zones';
import { dayEtas, etaFor, routeEtas, travelModel } from '../../services/dispatch/eta';
import { commitPlan, commitTravel, findPlan, MAX_RUNNING_PLANS, preparePlan, shapePlan, startPlan } from '../../services/dispatch/plans';
import { createFleetPlanner } from '../../services/planning/planner';
import { companyService, setCompanyService, setWindow, windowOf } from '../../services/dispatch/windows';
import { driverRef, findRoute } from '../../services/routes/shape';
import { STAFF } from '../routes/common';
import { dispatchResourceRoutes } from './resources';
import { dispatchSettingRoutes } from './settings';
import { livePackage } from '../../services/history/live';
import { proposeAmend } from '../../services/dispatch/amend';
import { shareKey } from '../../services/workers/shareKey';
import { commitAmend } from '../../services/dispatch/amendCommit';

const tags = ['Dispatch'];
const DateQuery = z.object({ date: z.iso.date().optional() });

/** Planning the day (issue 16): vehicles, shifts, depots, windows, plans in a worker thread, commit, arrival times. */
export function dispatchRoutes(app: App): void {
  dispatchResourceRoutes(app);
  dispatchSettingRoutes(app);
  // This app's worker threads (fleet's queue); startPlan refuses more than it runs at once.
  const planner = createFleetPlanner({ concurrency: MAX_RUNNING_PLANS });

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dispatch/depot/',
      tags,
      access: 'route.view',
      catalogue: [],
      response: z.object({ results: z.array(DepotPosition) }),
      summary: 'Depots (warehouses) with their position on the map, if set',
    },
    async ({ deps }) => ({ results: await depotPositions(deps.db) }),
  );

  defineRoute(
    app,
    {
      method: 'put',
      path: '/warehouse/{id}/position/',
      tags,
      access: 'warehouse.manage',
      catalogue: [],
      params: IdParams,
      body: DepotPositionBody,
      response: DepotPosition,
      summary: 'Sets where a depot is: vans leave from and return to it',
    },
    ({ deps, params, body }) => setDepotPosition(deps.db, deps.clock.now(), params.id, body),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/{id}/window/',
      tags,
      access: 'package.view',
      catalogue: [],
      params: IdParams,
      response: PackageWindow,
      summary: "A parcel's delivery window and time at the door (own, company default or courier default)",
    },
    async ({ deps, user, params }) => {
      await livePackage(deps.db, user, params.id);
      return windowOf(deps.db, params.id);
    },
  );

  defineRoute(
    app,
    {
      method: ['put', 'patch'],
      path: '/package/{id}/window/',
      tags,
      access: 'package.manage',
      catalogue: [],
      params: IdParams,
      body: PackageWindowBody,
      response: PackageWindow,
      summary: "Sets a parcel's delivery window (`HH:MM` on its delivery day) and time at the door; null clears",
    },
    async ({ deps, user, params, body }) => {
      await livePackage(deps.db, user, params.id);
      await setWindow(deps.db, deps.clock.now(), params.id, body);
      return windowOf(deps.db, params.id);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/company/{id}/service-time/',
      tags,
      access: 'company.view',
      catalogue: [],
      params: IdParams,
      response: CompanyServiceTime,
      summary: "A company's default time at the door (seconds) for its parcels",
    },
    ({ deps, user, params }) => {
      if (user.role === 'company' && user.companyId !== params.id) throw notFound(`Company ${params.id} not found`);
      return companyService(deps.db, params.id);
    },
  );

  defineRoute(
    app,
    {
      method: 'put',
      path: '/company/{id}/service-time/',
      tags,
      access: 'company.manage',
      catalogue: [],
      params: IdParams,
      body: CompanyServiceTimeBody,
      response: CompanyServiceTime,
      summary: "Sets a company's default time at the door (seconds)",
    },
    ({ deps, params, body }) => setCompanyService(deps.db, deps.clock.now(), params.id, body.service_s),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/dispatch/plan/',
      tags,
      access: 'route.manage',
      catalogue: [],
      body: PlanRequest,
      response: PlanJob,
      status: 202,
      summary: 'Plans a day: one route per driver on shift, in a worker thread; poll the plan for progress and the proposal',
      description:
        "Parcels: created, received or assigned, on no planned or running route, in the zones named or the zones of the depots named (none = all). `locks` pin a parcel to a driver; `fixed_routes` keep a driver's route as given.",
      // Read (a page per turn) before the transaction, with the road engine's matrix (OSRM_URL; great-circle when unset or failing).
      prepare: ({ deps, body }) => preparePlan(deps, body),
    },
    ({ deps, user, body, prepared }) =>
      startPlan(
        deps,
        user,
        body,
        (task, hardLimitMs, key) => planner.planDay(task, { signal: AbortSignal.timeout(hardLimitMs), key }),
        prepared,
      ),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dispatch/plan/{id}/',
      tags,
      access: 'route.manage',
      catalogue: [],
      params: IdParams,
      response: PlanJob,
      summary: 'A plan: status, progress (0..1) and, when done, the proposal',
    },
    async ({ deps, params }) => shapePlan(await findPlan(deps, params.id), deps.clock.now()),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/dispatch/plan/{id}/commit/',
      tags,
      access: 'route.manage',
      catalogue: [],
      params: IdParams,
      body: CommitBody,
      response: z.object({ success: z.boolean(), message: z.string(), routes: z.array(RouteRecord) }),
      status: 201,
      summary: "Creates the plan's routes (as edited on the board) and assigns their parcels, as POST route/ with a driver does",
      // The road legs of each route are asked before the transaction (OSRM_URL; the estimate when unset or failing).
      prepare: ({ deps, params, body }) => commitTravel(deps, params.id, body),
    },
    async ({ deps, user, params, body, prepared }) => {
      const routes = await commitPlan(deps, user, await findPlan(deps, params.id), body, prepared);
      return { success: true, message: `${routes.length} route(s) created`, routes };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/dispatch/amend/',
      tags,
      access: 'route.manage',
      catalogue: [],
      body: AmendRequest,
      response: AmendProposal,
      // Nothing is written, and the search waits for the planning worker: no unit of work held meanwhile.
      transactional: false,
      summary:
        "Proposes a change to the day's committed routes: new parcels inserted, or the stops of routes that cannot run moved to the others (nothing is written)",
      description:
        'Stops done and the next stop of a route under way stay put; the other stops keep their driver and move only when that saves more than `move_penalty_s`. Each route says what was added, moved and removed against what its driver has.',
    },
    ({ deps, user, body }) =>
      proposeAmend(deps, body, (task) => planner.amend(task, { key: shareKey(user), signal: AbortSignal.timeout(60_000) })),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/dispatch/amend/commit/',
      tags,
      access: 'route.manage',
      catalogue: [],
      body: AmendCommit,
      response: z.object({ success: z.boolean(), message: z.string(), routes: z.array(RouteRecord) }),
      summary:
        "Applies an amended day: routes get their new stops in order (the drivers' phones through the change feed), dropped routes are cancelled, arrival times move",
    },
    async ({ deps, user, body }) => {
      const routes = await commitAmend(deps, user, body);
      return { success: true, message: `${routes.length} route(s) changed`, routes };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dispatch/eta/',
      tags,
      access: { roles: STAFF },
      catalogue: [],
      query: DateQuery,
      response: z.object({ date: z.string(), results: z.array(RouteEtas) }),
      summary: "The day's planned and running routes with their arrival times, late-running routes first",
    },
    async ({ deps, query }) => {
      const date = query.date ?? (await today(deps));
      return { date, results: await dayEtas(deps, date, travelModel(deps.config)) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/route/{id}/eta/',
      tags,
      access: 'route.view',
      catalogue: [],
      params: IdParams,
      response: RouteEtas,
      summary: "Arrival times of a route's stops still to visit (staff, or the route's driver)",
    },
    async ({ deps, user, params }) => {
      if (user.role === 'company') throw forbidden('Companies have no access to routes');
      const route = await findRoute(deps.db, user, params.id);
      return routeEtas(
        deps,
        route,
        route.driver_id != null ? (await driverRef(deps.db, route.driver_id)).name : null,
        travelModel(deps.config),
      );
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/{id}/eta/',
      tags,
      access: 'package.view',
      catalogue: [],
      params: IdParams,
      response: z.object({ eta: StopEtaRecord.nullable() }),
      summary: "A parcel's arrival time on its route and the band told to its recipient (null when not on a planned or running route)",
    },
    async ({ deps, user, params }) => {
      await livePackage(deps.db, user, params.id);
      return { eta: await etaFor(deps.db, params.id) };
    },
  );
}
