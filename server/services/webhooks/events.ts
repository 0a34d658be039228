import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { pkg, webhookDelivery, webhookEndpoint } from '../../db/schema/index';
import type { PackageStatus } from '../../../shared/lifecycle';
import type { WebhookEvent } from '../../../shared/schemas/webhooks';
import { iso } from '../../clock';

type PackageRow = typeof pkg.$inferSelect;

/** The status a parcel enters -> the event a company hears; other states are internal steps. */
const EVENT_OF: Partial<Record<PackageStatus, WebhookEvent>> = {
  received: 'package.received',
  out_for_delivery: 'package.out_for_delivery',
  delivered: 'package.delivered',
  failed: 'package.failed',
  returned: 'package.returned',
};

/** What an event tells the company: its own parcel's identity and state, nothing about other parties. */
function payloadOf(event: WebhookEvent, eventId: string, now: number, row: PackageRow, previous: string | null) {
  return {
    id: eventId,
    type: event,
    created_at: iso(now),
    data: {
      package: {
        id: row.id,
        hawb: row.hawb,
        status: row.status,
        previous_status: previous,
        company: row.company_id,
        customer_code: row.customer_code,
        delivery_date: row.delivery_date,
        attempts: row.attempts,
        delivered_at: iso(row.delivered_at),
        updated_at: iso(row.updated_at),
      },
    },
  };
}

// Every transition asks for its company's endpoints: built once per database, not per parcel.
const activeEndpoints = (db: Db) =>
  db
    .select({ id: webhookEndpoint.id, events: webhookEndpoint.events })
    .from(webhookEndpoint)
    .where(and(eq(webhookEndpoint.company_id, sql.placeholder('company')), eq(webhookEndpoint.is_active, true)))
    .prepare();
const deliveryInsert = (db: Db) =>
  db
    .insert(webhookDelivery)
    .values({
      endpoint_id: sql.placeholder('endpoint_id'),
      company_id: sql.placeholder('company_id'),
      event_id: sql.placeholder('event_id'),
      event: sql.placeholder('event'),
      package_id: sql.placeholder('package_id'),
      payload: sql.placeholder('payload'),
      status: 'pending',
      attempts: 0,
      next_attempt_at: sql.placeholder('now'),
      created_at: sql.placeholder('now'),
      updated_at: sql.placeholder('now'),
    })
    .prepare();

/** One queue row per subscribed, active endpoint of the parcel's company. Must run in the caller's transaction. */
async function subscribers(db: Db, companyId: number, event: WebhookEvent): Promise<number[]> {
  return (await prepared(db, 'webhooks.activeEndpoints', activeEndpoints).all({ company: companyId }))
    .filter((e) => (JSON.parse(e.events) as string[]).includes(event))
    .map((e) => e.id);
}

export async function enqueueEvent(
  db: Db,
  now: number,
  event: WebhookEvent,
  row: PackageRow,
  previous: string | null,
  endpoints?: number[],
): Promise<number> {
  if (row.company_id == null) return 0;
  const targets = endpoints ?? (await subscribers(db, row.company_id, event));
  if (!targets.length) return 0;
  const insert = prepared(db, 'webhooks.deliveryInsert', deliveryInsert);
  for (const endpointId of targets) {
    const eventId = randomUUID();
    await insert.run({
      endpoint_id: endpointId,
      company_id: row.company_id,
      event_id: eventId,
      event,
      package_id: row.id,
      payload: JSON.stringify(payloadOf(event, eventId, now, row, previous)),
      now,
    });
  }
  return targets.length;
}

/** The lifecycle's hook: called from `updatePackage()` for every transition, in its transaction. */
export async function enqueueWebhookEvents(
  db: Db,
  now: number,
  row: PackageRow,
  to: PackageStatus | null,
  from: string | null = null,
): Promise<void> {
  const event = to ? EVENT_OF[to] : undefined;
  if (event) await enqueueEvent(db, now, event, row, from);
}

/** `package.created` for parcels this module creates (webhook pickups, uploads). */
export async function enqueueCreated(db: Db, now: number, ids: number[]): Promise<void> {
  // An upload of thousands of rows asks for each company's endpoints once.
  const byCompany = new Map<number, number[]>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const row of await db
      .select()
      .from(pkg)
      .where(inArray(pkg.id, ids.slice(i, i + 500)))
      .all()) {
      if (row.company_id == null) continue;
      let targets = byCompany.get(row.company_id);
      if (!targets) {
        targets = await subscribers(db, row.company_id, 'package.created');
        byCompany.set(row.company_id, targets);
      }
      if (targets.length) await enqueueEvent(db, now, 'package.created', row, null, targets);
    }
  }
}
