import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { webhookDelivery, webhookEndpoint } from '../../db/schema/index';
import { conflict, notFound } from '../../errors';
import { iso } from '../../clock';
import type {
  WebhookDeliveryQuery,
  WebhookEndpointCreate,
  WebhookEndpointQuery,
  WebhookEndpointUpdate,
  WebhookEvent,
} from '../../../shared/schemas/webhooks';
import type { SessionUser } from '../auth/session';
import { companyWebhookSecret } from '../org/webhookKey';
import { statusClass } from './dispatcher';
import { companyFilter, owningCompany } from './owner';

type EndpointRow = typeof webhookEndpoint.$inferSelect;
type DeliveryRow = typeof webhookDelivery.$inferSelect;

export const toEndpoint = (r: EndpointRow) => ({
  id: r.id,
  company: r.company_id,
  url: r.url,
  events: JSON.parse(r.events) as WebhookEvent[],
  description: r.description,
  is_active: r.is_active,
  created_at: iso(r.created_at) ?? '',
  updated_at: iso(r.updated_at) ?? '',
});

export const toDelivery = (r: DeliveryRow) => ({
  id: r.id,
  endpoint: r.endpoint_id,
  company: r.company_id,
  event_id: r.event_id,
  event: r.event as WebhookEvent,
  package: r.package_id,
  status: r.status as 'pending' | 'delivered' | 'dead',
  attempts: r.attempts,
  next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
  last_attempt_at: iso(r.last_attempt_at),
  last_status_class: r.last_status_code == null ? null : statusClass(r.last_status_code),
  last_error: r.last_error,
  delivered_at: iso(r.delivered_at),
  created_at: iso(r.created_at) ?? '',
  payload: JSON.parse(r.payload) as unknown,
});

const dedupe = (events: readonly WebhookEvent[]) => JSON.stringify([...new Set(events)].sort());

export async function findEndpoint(db: Db, me: SessionUser, id: number): Promise<EndpointRow> {
  const row = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, id)).get();
  if (!row || (me.companyId != null && row.company_id !== me.companyId)) throw notFound(`Webhook endpoint ${id} not found`);
  return row;
}

export async function listEndpoints(db: Db, me: SessionUser, q: z.output<typeof WebhookEndpointQuery>) {
  const companyId = companyFilter(me, q.company);
  const where = companyId != null ? eq(webhookEndpoint.company_id, companyId) : undefined;
  const total = (await db.select({ n: count() }).from(webhookEndpoint).where(where).get())?.n ?? 0;
  const rows = await db
    .select()
    .from(webhookEndpoint)
    .where(where)
    .orderBy(desc(webhookEndpoint.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size)
    .all();
  return { total, rows: rows.map(toEndpoint) };
}

export async function createEndpoint(deps: Deps, me: SessionUser, body: z.output<typeof WebhookEndpointCreate>) {
  const companyId = await owningCompany(deps.db, me, body.company);
  // Events are signed with the company key; without one a receiver could not check anything.
  if (!(await companyWebhookSecret(deps.db, companyId))) {
    throw conflict('Generate a webhook secret key first (POST webhook-secret-key/generate-key/): deliveries are signed with it', {
      reason: 'no_webhook_key',
    });
  }
  const now = deps.clock.now();
  return toEndpoint(
    await deps.db
      .insert(webhookEndpoint)
      .values({
        company_id: companyId,
        url: body.url,
        events: dedupe(body.events),
        description: body.description ?? '',
        is_active: body.is_active,
        created_at: now,
        updated_at: now,
      })
      .returning()
      .get(),
  );
}

export async function updateEndpoint(deps: Deps, me: SessionUser, id: number, body: z.output<typeof WebhookEndpointUpdate>) {
  const row = await findEndpoint(deps.db, me, id);
  if (body.company != null && body.company !== row.company_id) throw notFound(`Webhook endpoint ${id} not found`);
  const patch: Partial<typeof webhookEndpoint.$inferInsert> = { updated_at: deps.clock.now() };
  if (body.url !== undefined) patch.url = body.url;
  if (body.events !== undefined) patch.events = dedupe(body.events);
  if (body.description !== undefined) patch.description = body.description;
  if (body.is_active !== undefined) patch.is_active = body.is_active;
  return toEndpoint((await deps.db.update(webhookEndpoint).set(patch).where(eq(webhookEndpoint.id, id)).returning().get()) ?? row);
}

/** An endpoint goes with its queue: undelivered events to it could never be sent anywhere else. */
export async function deleteEndpoint(deps: Deps, me: SessionUser, id: number): Promise<void> {
  await findEndpoint(deps.db, me, id);
  await deps.db.delete(webhookDelivery).where(eq(webhookDelivery.endpoint_id, id)).run();
  await deps.db.delete(webhookEndpoint).where(eq(webhookEndpoint.id, id)).run();
}

export async function listDeliveries(db: Db, me: SessionUser, q: z.output<typeof WebhookDeliveryQuery>) {
  const companyId = companyFilter(me, q.company);
  const conds: (SQL | undefined)[] = [
    companyId != null ? eq(webhookDelivery.company_id, companyId) : undefined,
    q.status ? eq(webhookDelivery.status, q.status) : undefined,
    q.endpoint ? eq(webhookDelivery.endpoint_id, q.endpoint) : undefined,
    q.package ? eq(webhookDelivery.package_id, q.package) : undefined,
  ];
  const where = and(...conds);
  const total = (await db.select({ n: count() }).from(webhookDelivery).where(where).get())?.n ?? 0;
  const rows = await db
    .select()
    .from(webhookDelivery)
    .where(where)
    .orderBy(desc(webhookDelivery.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size)
    .all();
  return { total, rows: rows.map(toDelivery) };
}

export async function findDelivery(db: Db, me: SessionUser, id: number): Promise<DeliveryRow> {
  const row = await db.select().from(webhookDelivery).where(eq(webhookDelivery.id, id)).get();
  if (!row || (me.companyId != null && row.company_id !== me.companyId)) throw notFound(`Webhook delivery ${id} not found`);
  return row;
}

/** Sends an event again: due now, with a fresh allowance of attempts; the event id stays the same so receivers can de-duplicate. */
export async function replayDelivery(deps: Deps, me: SessionUser, id: number) {
  await findDelivery(deps.db, me, id);
  const now = deps.clock.now();
  return toDelivery(
    (await deps.db
      .update(webhookDelivery)
      .set({ status: 'pending', attempts: 0, next_attempt_at: now, delivered_at: null, updated_at: now })
      .where(eq(webhookDelivery.id, id))
      .returning()
      .get()) as DeliveryRow,
  );
}
