import type { Db } from '../../db/client';
import type { PackageStatus } from '../../../shared/lifecycle';
import type { PackageRow } from './shape';

export interface Actor {
  userId: number | null;
  deviceId?: string | null;
}
export interface ActionMeta {
  /** Device time of the action (epoch ms); the server time is recorded beside it. */
  occurredAt?: number;
  latitude?: number | null;
  longitude?: number | null;
  note?: string | null;
  data?: Record<string, unknown>;
}

/** One change of one parcel, announced once by the lifecycle (`updatePackage`) inside its unit of work. */
export interface ParcelChange {
  db: Db;
  now: number;
  /** The row as it was, and as it is now (patched, event written). */
  before: PackageRow;
  after: PackageRow;
  /** The state entered, or null for a change that is not a transition (sequence, zone). */
  to: PackageStatus | null;
  actor: Actor;
  meta: ActionMeta;
}

/** A domain that follows parcels' changes (money, webhooks, recipients, ETAs, the sync feed): its own module each. */
export interface ParcelSubscriber {
  readonly name: string;
  receive(change: ParcelChange): Promise<void>;
}

export interface ParcelChanges {
  /** The subscribers' names in the order they hear each change. */
  readonly order: readonly string[];
  publish(change: ParcelChange): Promise<void>;
}

/**
 * The publisher of parcel changes: each subscriber in turn, awaited, in the unit of work of the
 * change (a subscriber that throws rolls the change back with everything else). The sync feed must
 * be last: on PostgreSQL its lock is held from its insert to COMMIT, so as little as possible follows.
 */
export function parcelChanges(subscribers: readonly ParcelSubscriber[]): ParcelChanges {
  const order = subscribers.map((s) => s.name);
  if (new Set(order).size !== order.length) throw new Error(`a parcel change subscriber is listed twice: ${order.join(', ')}`);
  if (order.at(-1) !== 'feed') throw new Error(`the sync feed must hear parcel changes last, not: ${order.join(', ')}`);
  return {
    order,
    async publish(change) {
      for (const s of subscribers) await s.receive(change);
    },
  };
}

/** The app's publisher rides on its database handle: per app (createApp), never a module's state. */
type Announcing = { $parcelChanges?: ParcelChanges };

/** createApp's registration: from now on every change made through `db` is published to `changes`. */
export function announceParcelChangesOn(db: Db, changes: ParcelChanges): void {
  Object.assign(db, { $parcelChanges: changes } satisfies Announcing);
}

/** The publisher of the app that owns `db`; a database no app was made over has none, and cannot change parcels. */
export function parcelChangesOf(db: Db): ParcelChanges {
  const changes = (db as Db & Announcing).$parcelChanges;
  if (!changes) throw new Error('no parcel change publisher on this database: createApp registers one');
  return changes;
}
