/**
 * Each driver action declared once (issue 31): its path, its body schema, and what it does to a
 * parcel, computed from the lifecycle (shared/lifecycle.ts, attempts and the must-return rule
 * included). The server's services decide with `driverOutcome()` before they write; the phone
 * predicts with the same function (what it offers) and lays `applyDriverAction()` over its copies
 * while an action waits in the outbox. No rule is decided from display text.
 */
import { isFinal, mustReturn, transitionProblem, type PackageStatus } from './lifecycle';

export const DRIVER_ACTION_KINDS = ['load', 'unload', 'deliver', 'fail'] as const;
export type DriverActionKind = (typeof DRIVER_ACTION_KINDS)[number];

/** What the rules read of a parcel: the same fields on the server's row and the phone's copy. */
export interface ParcelState {
  status: PackageStatus;
  /** Failed attempts in the current delivery cycle (a redelivery starts again at 0). */
  attempts: number;
  is_scanned: boolean;
  assigned_to_id: number | null;
}

export interface RuleContext {
  driverId: number;
  /** The configured attempt limit (server `config.maxAttempts`; the phone keeps the last one it was told). */
  maxAttempts: number;
  /**
   * Whether the parcel was ever this driver's (they moved it, or it entered their device's feed);
   * only asked about a parcel now assigned to someone else. A parcel on the phone always was.
   */
  wasDrivers?: boolean;
}

/**
 * Why an action is refused; the lifecycle's reasons plus those of ownership: `reassigned` (it was this
 * driver's, now another's), `not_yours` (never theirs, named by a label in hand), `not_found` (never
 * theirs, named by id). A parcel that was theirs and became final meanwhile is `final`: that is what
 * happened, not "another driver" (the phone tells the driver what to do from these, client/driver/refusal.ts).
 */
export type DriverRefusal = 'final' | 'not_allowed' | 'must_return' | 'reassigned' | 'not_yours' | 'not_found';

export type DriverOutcome =
  | {
      ok: true;
      /** The statuses the parcel passes through, in order (deliver from `assigned` loads it first). Empty: nothing changes. */
      steps: PackageStatus[];
      next: ParcelState;
      /** A repeat scan of a loaded parcel: accepted, nothing changes. */
      already: boolean;
      /** A delivery made after the parcel was reassigned: accepted, taken back, flagged for a supervisor. */
      flagged: boolean;
    }
  | { ok: false; reason: DriverRefusal; /** The status it would have become, for the refusal's message. */ to: PackageStatus };

interface Declaration {
  /** The route as the server declares it (OpenAPI form). */
  route: string;
  /** The path relative to the API base, as the phone queues it. */
  path: (packageId: number) => string;
  /** The parcel is named by its barcode in the body (scans) or by the id in the path. */
  names: 'barcode' | 'id';
}

/**
 * Paths and rules. The body schemas are declared beside, per kind (shared/schemas/driverActions.ts,
 * a record over the same kinds, so a new kind cannot lack one): this module stays free of zod, which
 * the driver's day chunk must not carry (vite.config.ts).
 */
export const DRIVER_ACTIONS = {
  load: { route: '/scan-package-api/inbound-scan/', path: () => 'scan-package-api/inbound-scan/', names: 'barcode' },
  unload: { route: '/scan-package-api/reset-scanned/', path: () => 'scan-package-api/reset-scanned/', names: 'barcode' },
  deliver: { route: '/package-delivered/{id}/deliver/', path: (id: number) => `package-delivered/${id}/deliver/`, names: 'id' },
  fail: { route: '/package-delivered/{id}/fail/', path: (id: number) => `package-delivered/${id}/fail/`, names: 'id' },
} as const satisfies Record<DriverActionKind, Declaration>;

const refuse = (reason: DriverRefusal, to: PackageStatus): DriverOutcome => ({ ok: false, reason, to });
const accept = (steps: PackageStatus[], next: ParcelState, extra: { already?: boolean; flagged?: boolean } = {}): DriverOutcome => ({
  ok: true,
  steps,
  next,
  already: extra.already ?? false,
  flagged: extra.flagged ?? false,
});
/**
 * A parcel that is not (or no longer) the driver's: cancelled or delivered since it left them is final;
 * otherwise reassigned; never theirs is not theirs when named by a label in hand, unknown when named by id.
 */
function elsewhere(p: ParcelState, ctx: RuleContext, to: PackageStatus, byLabel: boolean): DriverOutcome {
  if (ctx.wasDrivers) return refuse(isFinal(p.status) ? 'final' : 'reassigned', to);
  return refuse(byLabel ? 'not_yours' : 'not_found', to);
}

function load(p: ParcelState, ctx: RuleContext): DriverOutcome {
  if (p.assigned_to_id !== ctx.driverId) return elsewhere(p, ctx, 'out_for_delivery', true);
  if (p.status === 'out_for_delivery' && p.is_scanned) return accept([], p, { already: true });
  // Only a parcel waiting for the van: assigned, or failed for a reattempt (unless it must come back).
  if (p.status !== 'assigned' && p.status !== 'failed') return refuse('not_allowed', 'out_for_delivery');
  const problem = transitionProblem(p.status, 'out_for_delivery', { attempts: p.attempts, maxAttempts: ctx.maxAttempts });
  if (problem) return refuse(problem, 'out_for_delivery');
  return accept(['out_for_delivery'], { ...p, status: 'out_for_delivery', is_scanned: true });
}

function unload(p: ParcelState, ctx: RuleContext): DriverOutcome {
  if (p.assigned_to_id !== ctx.driverId) return elsewhere(p, ctx, 'assigned', true);
  if (p.status !== 'out_for_delivery') return refuse(isFinal(p.status) ? 'final' : 'not_allowed', 'assigned');
  return accept(['assigned'], { ...p, status: 'assigned', is_scanned: false });
}

/**
 * A delivery: an assigned (unscanned) or failed (reattempt) parcel passes through out_for_delivery.
 * One delivered offline after a reassignment happened: it is accepted and flagged, never over a
 * final state or the must-return rule (those bind forced changes too).
 */
function deliver(p: ParcelState, ctx: RuleContext): DriverOutcome {
  if (p.assigned_to_id !== ctx.driverId) {
    if (!ctx.wasDrivers) return refuse('not_found', 'delivered');
    const problem = transitionProblem(p.status, 'delivered', { attempts: p.attempts, maxAttempts: ctx.maxAttempts, force: true });
    if (problem) return refuse(problem, 'delivered');
    return accept(['delivered'], { ...p, status: 'delivered', assigned_to_id: ctx.driverId }, { flagged: true });
  }
  if (isFinal(p.status)) return refuse('final', 'delivered');
  if (p.status === 'failed' && mustReturn(p.attempts, ctx.maxAttempts)) return refuse('must_return', 'delivered');
  const steps: PackageStatus[] = [];
  let at = p;
  if (p.status === 'assigned' || p.status === 'failed') {
    steps.push('out_for_delivery');
    at = { ...p, status: 'out_for_delivery', is_scanned: true };
  }
  const problem = transitionProblem(at.status, 'delivered', { attempts: at.attempts, maxAttempts: ctx.maxAttempts });
  if (problem) return refuse(problem, 'delivered');
  return accept([...steps, 'delivered'], { ...at, status: 'delivered' });
}

/** A failed attempt at the door: out_for_delivery -> failed, one more attempt, off the van (a reattempt needs a new scan). */
function fail(p: ParcelState, ctx: RuleContext): DriverOutcome {
  // A failure is no fact worth overriding a reassignment for: the new driver may still deliver it.
  if (p.assigned_to_id !== ctx.driverId) return elsewhere(p, ctx, 'failed', false);
  if (isFinal(p.status)) return refuse('final', 'failed');
  const problem = transitionProblem(p.status, 'failed', { attempts: p.attempts, maxAttempts: ctx.maxAttempts });
  if (problem) return refuse(problem, 'failed');
  return accept(['failed'], { ...p, status: 'failed', attempts: p.attempts + 1, is_scanned: false });
}

const RULES: Record<DriverActionKind, (p: ParcelState, ctx: RuleContext) => DriverOutcome> = { load, unload, deliver, fail };

/** What a driver action does to a parcel, or why the server refuses it. Pure: the server and the phone both call it. */
export function driverOutcome(kind: DriverActionKind, p: ParcelState, ctx: RuleContext): DriverOutcome {
  return RULES[kind](p, ctx);
}

/** The parcel as it will be once the action is accepted (the phone's pending view); unchanged when it would be refused. */
export function applyDriverAction(kind: DriverActionKind, p: ParcelState, ctx: RuleContext): ParcelState {
  const out = driverOutcome(kind, p, { wasDrivers: true, ...ctx });
  return out.ok ? out.next : p;
}

/** Whether the driver may be offered the action on this parcel (a parcel on their phone was always theirs). */
export function offers(kind: DriverActionKind, p: ParcelState, ctx: RuleContext): boolean {
  const out = driverOutcome(kind, p, { wasDrivers: true, ...ctx });
  return out.ok && !out.already;
}

/** Statuses still on a delivery route (ordered, shown as open stops): everything before a final state or a return. */
export const OPEN_ROUTE_STATUSES: readonly PackageStatus[] = ['created', 'received', 'assigned', 'out_for_delivery', 'failed'];
export const isOpenOnRoute = (status: PackageStatus) => OPEN_ROUTE_STATUSES.includes(status);

/** A failed parcel that used its attempts: it only goes back to the depot. */
export const mustGoBack = (p: Pick<ParcelState, 'status' | 'attempts'>, maxAttempts: number) =>
  p.status === 'failed' && mustReturn(p.attempts, maxAttempts);

const ID_PATHS = DRIVER_ACTION_KINDS.filter((k) => DRIVER_ACTIONS[k].names === 'id').map((kind) => ({
  kind,
  pattern: new RegExp(`^${DRIVER_ACTIONS[kind].route.slice(1).replace('{id}', '(\\d+)')}$`),
}));

/**
 * The driver action a queued request is, read from its path (outbox rows saved by any version carry
 * one), with the parcel id its path names; null for any other request.
 */
export function driverActionOfPath(path: string): { kind: DriverActionKind; packageId: number | null } | null {
  for (const kind of DRIVER_ACTION_KINDS) {
    if (DRIVER_ACTIONS[kind].names === 'barcode' && path === DRIVER_ACTIONS[kind].route.slice(1)) return { kind, packageId: null };
  }
  for (const { kind, pattern } of ID_PATHS) {
    const m = pattern.exec(path);
    if (m) return { kind, packageId: Number(m[1]) };
  }
  return null;
}
