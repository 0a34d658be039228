import { z } from 'zod';
import { pageOf, ListQuery, requiredText, text, updateOf } from './common';
import { PackageCreate } from './package';

/** Package events a company can subscribe an endpoint to. */
export const WEBHOOK_EVENTS = [
  'package.created',
  'package.received',
  'package.out_for_delivery',
  'package.delivered',
  'package.failed',
  'package.returned',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Inbound calls older (or further in the future) than this are refused; replays are remembered as long. */
export const WEBHOOK_WINDOW_SECONDS = 300;

const url = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/ }));

export const WebhookEndpointCreate = z.object({
  /** Staff name the company; a company login always registers for itself. */
  company: z.number().int().positive().optional(),
  url,
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
  description: text(500).optional(),
  is_active: z.boolean().default(true),
});
export const WebhookEndpointUpdate = updateOf(WebhookEndpointCreate);
export const WebhookEndpoint = z.object({
  id: z.number().int(),
  company: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const WebhookEndpointList = pageOf(WebhookEndpoint);
export const WebhookEndpointQuery = ListQuery.extend({ company: z.coerce.number().int().positive().optional() });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;
export const WebhookDelivery = z.object({
  id: z.number().int(),
  endpoint: z.number().int(),
  company: z.number().int(),
  event_id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  package: z.number().int().nullable(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  /** The receiver's last answer as a class (`2xx`...`5xx`), never the exact status: the log is not a port scanner. */
  last_status_class: z.string().nullable(),
  /** A fixed phrase (no answer, target refused, failed: 5xx), never the network error's text. */
  last_error: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
  payload: z.unknown(),
});
export const WebhookDeliveryList = pageOf(WebhookDelivery);
export const WebhookDeliveryQuery = ListQuery.omit({ search: true, ordering: true }).extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  endpoint: z.coerce.number().int().positive().optional(),
  company: z.coerce.number().int().positive().optional(),
  package: z.coerce.number().int().positive().optional(),
});

/** Inbound: a company's system asks for a pickup (Create Pickup Package by Webhook). */
export const WebhookPickupCreate = PackageCreate.omit({ company: true }).extend({
  /** The company's pickup point the parcel waits at. */
  pickup_point: z.number().int().positive().nullable().optional(),
});
export const WebhookPickupUpdate = updateOf(PackageCreate.omit({ company: true })).extend({
  hawb: PackageCreate.shape.hawb,
  pickup_point: z.number().int().positive().nullable().optional(),
  /** The only state a company may set itself: it no longer wants the pickup. */
  status: z.literal('cancelled').optional(),
  note: text(1000).optional(),
});

export const ApiKeyCreate = z.object({
  company: z.number().int().positive().optional(),
  name: requiredText(120).optional(),
});
export const ApiKey = z.object({
  id: z.number().int(),
  company: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
export const ApiKeyCreated = ApiKey.extend({ success: z.boolean(), message: z.string(), key: z.string() });
export const ApiKeyList = z.object({ count: z.number().int(), results: z.array(ApiKey) });
