import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { packageEvent, pkg } from '../../db/schema/index';
import { allowedTransitions, DEFAULT_MAX_ATTEMPTS, transitionProblem, type PackageStatus } from '../../../shared/lifecycle';
import { invalidTransition } from '../../errors';
import { logPackageChange } from '../sync/changes';
import type { PackageRow } from './shape';
import { refundOnCancel } from '../money/charges';
import { enqueueWebhookEvents } from '../webhooks/events';

export interface Actor { userId: number | null; deviceId?: string | null }
export interface ActionMeta {
  /** Device time of the action (epoch ms); the server time is recorded beside it. */
  occurredAt?: number;
  latitude?: number | null;
  longitude?: number | null;
  note?: string | null;
  data?: Record<string, unknown>;
}
export interface TransitionOptions {
  /** The configured attempt limit (deps.config.maxAttempts); past it a failed parcel may only be returned. */
  maxAttempts?: number;
  /** Admin force actions skip the table, never a final state. */
  force?: boolean;
}

export function findPackage(db: Db, id: number): PackageRow | undefined {
  return db.select().from(pkg).where(eq(pkg.id, id)).get();
}
export function findByBarcode(db: Db, barcode: string): PackageRow | undefined {
  return db.select().from(pkg).where(eq(pkg.hawb, barcode.trim())).get();
}

export function recordEvent(
  db: Db, now: number, row: Pick<PackageRow, 'id' | 'status'>, action: string, actor: Actor, meta: ActionMeta,
  to: PackageStatus | null = null,
): void {
  db.insert(packageEvent).values({
    package_id: row.id, action, from_status: row.status, to_status: to, actor_id: actor.userId,
    device_id: actor.deviceId ?? null, occurred_at: meta.occurredAt ?? now, received_at: now,
    latitude: meta.latitude ?? null, longitude: meta.longitude ?? null, note: meta.note ?? null,
    data: meta.data ? JSON.stringify(meta.data) : null,
  }).run();
}

const words = (s: string) => s.replace(/_/g, ' ');

/** The 409 for a refused change, naming the parcel and its state; `details` carries what a device needs to reconcile. */
export function refusal(row: PackageRow, to: PackageStatus | string, problem: string, maxAttempts = DEFAULT_MAX_ATTEMPTS) {
  const from = row.status as PackageStatus;
  const why = problem === 'final' ? ' (final)'
    : problem === 'must_return' ? ` after ${row.attempts} of ${maxAttempts} attempts and must be returned to the depot` : '';
  return invalidTransition(
    `Parcel ${row.hawb} is ${words(from)}${why}; it cannot become ${words(to)}`,
    { package: row.id, hawb: row.hawb, status: from, attempts: row.attempts, allowed: problem === 'final' ? [] : allowedTransitions(from), reason: problem },
  );
}

/**
 * The one way a package changes state: checks the lifecycle table, applies the patch, writes the
 * event and the change-feed rows. Must run inside the caller's transaction.
 */
export function transition(
  db: Db, now: number, row: PackageRow, to: PackageStatus, action: string, actor: Actor, meta: ActionMeta = {},
  patch: Partial<typeof pkg.$inferInsert> = {}, opts: TransitionOptions = {},
): PackageRow {
  const problem = transitionProblem(row.status as PackageStatus, to, { attempts: row.attempts, maxAttempts: opts.maxAttempts, force: opts.force });
  if (problem) throw refusal(row, to, problem, opts.maxAttempts);
  if (to === 'cancelled') refundOnCancel(db, now, row, actor.userId);
  return updatePackage(db, now, row, { ...patch, status: to }, action, actor, meta, to);
}

/** A change that is not a transition (sequence, zone) still writes an event and reaches devices. */
export function updatePackage(
  db: Db, now: number, row: PackageRow, patch: Partial<typeof pkg.$inferInsert>, action: string, actor: Actor,
  meta: ActionMeta = {}, to: PackageStatus | null = null,
): PackageRow {
  const updated = db.update(pkg).set({ ...patch, updated_at: now }).where(eq(pkg.id, row.id)).returning().get();
  if (!updated) throw new Error(`package ${row.id} vanished inside its transaction`);
  recordEvent(db, now, row, action, actor, meta, to);
  logPackageChange(db, row.id, { driverId: updated.assigned_to_id, previousDriverId: row.assigned_to_id, companyId: updated.company_id }, now);
  enqueueWebhookEvents(db, now, updated, to, row.status);
  return updated;
}
