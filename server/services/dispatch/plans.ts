import { and, eq, inArray } from 'drizzle-orm';
import type { CommitBody, PlanJob, PlanRequest } from '../../../shared/schemas/dispatch';
import type { RouteRecord } from '../../../shared/schemas/routes';
import { iso } from '../../clock';
import type { Deps } from '../../deps';
import { depotPosition, dispatchPlan, driverShift, pkg, user } from '../../db/schema/index';
import { ApiError, conflict, notFound } from '../../errors';
import type { SessionUser } from '../auth/session';
import { routeRecord, type RouteRow } from '../routes/shape';
import { refreshRouteEtas, travelModel } from './eta';
import { buildPlan } from './problem';
import { travelMatrix } from '../geo/travelTimes';
import { proposalContext, proposeDay, type DayPlanTask } from './proposal';
import { RawJson, rawObject } from '../../http/rawJson';
import { CPU_CAP_FACTOR } from '../../../shared/routing/fleet/optimize';
import { shareKey } from '../workers/shareKey';
import { routeLegs, type PlannedLeg } from './legs';
import { deliveryOrder, routeStops } from './pairCommit';
import { openRoute } from './openRoute';

type PlanRow = typeof dispatchPlan.$inferSelect;
/** The worker gets the time limit plus this before it counts as lost. */
const WORKER_MARGIN_MS = 30_000;
/** Plans solving at once: each takes a core for its whole budget (the server has few). */
export const MAX_RUNNING_PLANS = 2;

/** A plan still "running" well past its budget was lost (the server restarted while it ran). */
const lost = (row: PlanRow, now: number) =>
  row.status === 'running' && row.started_at != null && now - row.started_at > row.time_limit_ms * CPU_CAP_FACTOR + 2 * WORKER_MARGIN_MS;

/**
 * Plans a day and shapes its proposal off the request thread (the app's fleet planner), answering
 * the proposal's JSON text; `key` is whose fair share it uses.
 */
export type FleetRunner = (task: DayPlanTask, hardLimitMs: number, key: string) => Promise<string>;

/** Parcels a plan with nothing to search (no van, or no parcel with a place) shapes here rather than in a worker. */
const SHAPED_HERE_MAX = 100;

/** A plan's status without its proposal. */
function planStatus(row: PlanRow, now: number): PlanJob & { proposal: null } {
  if (lost(row, now)) row = { ...row, status: 'failed', message: 'The plan was interrupted (the server restarted); plan again' };
  const running = row.status === 'running' && row.started_at != null;
  // The optimiser uses its whole budget, so elapsed time over the budget is an honest progress figure.
  const progress = row.status === 'done' ? 1 : running ? Math.min(0.95, 0.05 + (now - (row.started_at as number)) / row.time_limit_ms) : 0;
  return {
    id: row.id,
    date: row.date,
    status: row.status as PlanJob['status'],
    progress: Math.round(progress * 100) / 100,
    message: row.message,
    proposal: null,
    committed_at: iso(row.committed_at),
    created_at: iso(row.created_at) ?? '',
  };
}

/**
 * A plan as the board reads it (a PlanJob). The proposal is spliced into the answer as the worker
 * wrote it: parsing it, checking it and writing it out again on every poll grew with the parcels,
 * on the request thread (security issue 30).
 */
export function shapePlan(row: PlanRow, now: number): PlanJob | RawJson {
  const job = planStatus(row, now);
  return row.proposal ? rawObject({ ...job, proposal: new RawJson(row.proposal) }) : job;
}

/** A day's plan read and shaped, ready for the worker. */
export type BuiltPlan = Awaited<ReturnType<typeof buildPlan>>;

/**
 * Reads and shapes a day's plan before its transaction (a route's `prepare`): bad input answers 400
 * and nothing runs. The reads are many (up to 5,000 parcels) and go a page per turn of the event
 * loop, which inside a unit of work would hold every other request's reads on SQLite; outside it
 * they interleave with them (security issue 30). With a road engine configured (OSRM_URL) its
 * matrix over the plan's points is fetched here too; `travelMatrix` caches per day and falls back
 * to the great-circle estimate when the engine fails, so planning never depends on it. Without one
 * the worker builds the great-circle matrix itself.
 */
export async function preparePlan(deps: Deps, req: PlanRequest): Promise<BuiltPlan> {
  const built = await buildPlan(deps, req, travelModel(deps.config));
  if (!deps.config.osrmUrl || built.ctx.points.length < 2) return built;
  const travel = await travelMatrix(deps, built.ctx.points, req.date);
  built.problem.road = { points: built.ctx.points, matrix: travel.matrix };
  return built;
}

/**
 * Starts planning a day read by `preparePlan`: the plan row is written, and the plan solved and its
 * proposal shaped in a worker thread; the row reports progress and, at the end, the proposal or why
 * it failed. Nothing here grows with the parcels but handing them to the worker.
 */
export async function startPlan(deps: Deps, actor: SessionUser, req: PlanRequest, run: FleetRunner, built: BuiltPlan): Promise<PlanJob> {
  const now = deps.clock.now();
  const running = (await deps.db.select().from(dispatchPlan).where(eq(dispatchPlan.status, 'running')).all()).filter((r) => !lost(r, now));
  if (running.length >= MAX_RUNNING_PLANS) {
    throw new ApiError(409, 'conflict', `${running.length} plans are being made already; try again when one has finished`, [], {
      running: running.map((r) => r.id),
    });
  }
  const { ctx, problem } = built;
  const row = await deps.db
    .insert(dispatchPlan)
    .values({
      date: req.date,
      status: 'running',
      request: JSON.stringify(req),
      time_limit_ms: req.time_limit_ms,
      started_at: now,
      created_by: actor.id,
      created_at: now,
    })
    .returning()
    .get();
  const finish = async (patch: Partial<PlanRow>) => {
    await deps.db
      .update(dispatchPlan)
      .set({ ...patch, finished_at: deps.clock.now() })
      .where(eq(dispatchPlan.id, row.id))
      .run();
  };
  const task: DayPlanTask = { problem, context: proposalContext(ctx), startedAt: performance.timeOrigin + performance.now() };
  const parcels = ctx.parcels.length - ctx.pairs.length + ctx.preUnassigned.length + ctx.fixed.reduce((s, f) => s + f.parcels.length, 0);
  // Nothing to search and little to shape: shaped at once rather than in a thread. Anything that
  // grows with the parcels (the search, the reasons, the proposal) runs in the worker.
  const solving =
    (!problem.jobs.length || !problem.vehicles.length) && parcels <= SHAPED_HERE_MAX
      ? new Promise<string>((resolve) => resolve(proposeDay(task)))
      : // The search's budget is CPU time with a cap of CPU_CAP_FACTOR x the limit (issue 32).
        run(task, Math.ceil(req.time_limit_ms * CPU_CAP_FACTOR) + WORKER_MARGIN_MS, shareKey(actor));
  // Its failure is reported through the plan row; a unit that failed leaves nobody to report to.
  solving.catch(() => undefined);
  // Written back once this request's unit is durable, so the plan row is there to update.
  deps.writes.after(() => {
    void solving
      .then(
        (proposal) => finish({ status: 'done', proposal }),
        (err: unknown) => finish({ status: 'failed', message: err instanceof Error ? err.message : String(err) }),
      )
      .catch(() => {
        /* the database is gone (app closed): nothing to report to */
      });
  });
  return planStatus(row, now);
}

export async function findPlan(deps: Deps, id: number): Promise<PlanRow> {
  const row = await deps.db.select().from(dispatchPlan).where(eq(dispatchPlan.id, id)).get();
  if (!row) throw notFound(`Plan ${id} not found`);
  return row;
}

/**
 * Turns the (possibly edited) proposal into routes: one `createRoute` per driver with the parcels
 * in order, exactly as `POST route/` with a driver does (route_add and assign events, the change
 * feed to the drivers' phones), all in one transaction. Then every stop gets its promised ETA.
 */
/**
 * The road legs of each route of a commit, in its order (OSRM_URL, else the estimate), asked before
 * the transaction like a plan's matrix. Keyed by the route's index in the body.
 */
export async function commitTravel(deps: Deps, planId: number, body: CommitBody): Promise<PlannedLeg[][]> {
  const plan = await deps.db.select({ date: dispatchPlan.date }).from(dispatchPlan).where(eq(dispatchPlan.id, planId)).get();
  if (!plan) return [];
  const ids = body.routes.flatMap((r) => r.packages);
  const parcels = new Map(
    (ids.length
      ? await deps.db.select({ id: pkg.id, latitude: pkg.latitude, longitude: pkg.longitude }).from(pkg).where(inArray(pkg.id, ids)).all()
      : []
    ).map((p) => [p.id, p]),
  );
  const out: PlannedLeg[][] = [];
  for (const r of body.routes) {
    const shift = await deps.db
      .select()
      .from(driverShift)
      .where(and(eq(driverShift.date, plan.date), eq(driverShift.driver_id, r.driver)))
      .get();
    const depot =
      shift?.start_warehouse_id != null
        ? await deps.db.select().from(depotPosition).where(eq(depotPosition.warehouse_id, shift.start_warehouse_id)).get()
        : undefined;
    const stops = deliveryOrder(r.packages).map((id) => ({
      id,
      latitude: parcels.get(id)?.latitude ?? null,
      longitude: parcels.get(id)?.longitude ?? null,
    }));
    out.push(await routeLegs(deps, depot ? { latitude: depot.latitude, longitude: depot.longitude } : null, stops));
  }
  return out;
}

export async function commitPlan(deps: Deps, actor: SessionUser, plan: PlanRow, body: CommitBody, legs: PlannedLeg[][] = []) {
  if (plan.committed_at != null) throw conflict(`Plan ${plan.id} was already committed`, { committed_at: iso(plan.committed_at) });
  if (plan.status !== 'done')
    throw conflict(`Plan ${plan.id} is ${plan.status}; only a finished plan can be committed`, { status: plan.status });
  const drivers = body.routes.map((r) => r.driver);
  if (new Set(drivers).size !== drivers.length)
    throw new ApiError(400, 'validation_error', 'One route per driver', [{ path: 'routes', message: 'a driver is named twice' }]);
  const shifts = new Map(
    (
      await deps.db
        .select()
        .from(driverShift)
        .where(and(eq(driverShift.date, plan.date), inArray(driverShift.driver_id, drivers)))
        .all()
    ).map((s) => [s.driver_id, s]),
  );
  const names = new Map(
    (await deps.db.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, drivers)).all()).map((u) => [u.id, u.name]),
  );
  const created: RouteRow[] = [];
  const now = deps.clock.now();
  // A parcel named twice on a route is collected at its first place and delivered at its second (issue 32): checked before anything is written.
  for (const r of body.routes) routeStops(r.packages);
  for (const [k, r] of body.routes.entries())
    created.push(
      await openRoute(deps, actor, {
        date: plan.date,
        driver: r.driver,
        name: r.name ?? `${names.get(r.driver) ?? `Driver ${r.driver}`} ${plan.date}`,
        packages: r.packages,
        shift: shifts.get(r.driver),
        legs: legs[k],
      }),
    );
  await deps.db.update(dispatchPlan).set({ committed_at: now }).where(eq(dispatchPlan.id, plan.id)).run();
  for (const route of created) await refreshRouteEtas(deps, route.id, { replan: true });
  const records: RouteRecord[] = [];
  for (const r of created) records.push(await routeRecord(deps.db, r));
  return records;
}
