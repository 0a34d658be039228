import { z } from 'zod';
import { IdParams, SuccessMessage } from '../../../shared/schemas/common';
import {
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKey,
  ApiKeyList,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointQuery,
  WebhookEndpointUpdate,
  WEBHOOK_EVENTS,
} from '../../../shared/schemas/webhooks';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { badRequest } from '../../errors';
import { refusedAtSave } from '../../services/webhooks/outbound';
import { pageLinks } from '../../resources/list';
import { createApiKey, listApiKeys, revokeApiKey, toApiKey } from '../../services/webhooks/apiKeys';
import {
  createEndpoint,
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  replayDelivery,
  toDelivery,
  toEndpoint,
  updateEndpoint,
} from '../../services/webhooks/endpoints';

const tags = ['Webhooks'];
const SIGNING =
  'Each event is POSTed as JSON `{ id, type, created_at, data: { package } }` with headers `X-Courier-Event`, ' +
  '`X-Courier-Event-Id` (the same on every retry: de-duplicate on it), `X-Courier-Timestamp` and `X-Courier-Signature: sha256=<hex ' +
  'HMAC-SHA256 of "<timestamp>.<body>">` keyed with the company\'s webhook secret, as inbound calls are signed. Any 2xx is success; ' +
  'otherwise retried with exponential back-off and marked dead after the last attempt.';

const TARGET_DOC =
  'A `url` whose host is, or resolves to, a loopback, private, link-local, unique-local, multicast or reserved address ' +
  '(IPv4-mapped forms included) is refused with 400, and checked again before every send; redirects are not followed. ' +
  'The delivery log shows only delivered or failed with the status class.';

/** Refused targets are a 400 before the transaction (resolving a name is async). */
async function checkTarget(allow: readonly string[], url: string | undefined): Promise<void> {
  if (url === undefined) return;
  const reason = await refusedAtSave(url, allow);
  if (reason) throw badRequest(`The webhook URL is refused: ${reason}`, [{ path: 'url', message: reason }]);
}

export function webhookEndpointRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/webhook-endpoint/',
      tags,
      access: 'webhook.view',
      query: WebhookEndpointQuery,
      response: WebhookEndpointList,
      catalogue: [],
      summary: 'Outbound webhook endpoints',
      description: `Events: ${WEBHOOK_EVENTS.join(', ')}. A company sees its own; staff all (\`company\` filters).`,
    },
    async ({ deps, user, query, c }) => {
      const { total, rows } = await listEndpoints(deps.db, user, query);
      return { count: total, ...pageLinks(c.req.url, query.page, query.page_size, total), results: rows };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/webhook-endpoint/',
      tags,
      access: 'webhook.manage',
      body: WebhookEndpointCreate,
      response: WebhookEndpoint,
      status: 201,
      catalogue: [],
      summary: 'Register an endpoint for package events',
      description: `${SIGNING} The company must have generated its webhook key first (409 otherwise). Staff name \`company\`. ${TARGET_DOC}`,
      prepare: ({ deps, body }) => checkTarget(deps.config.webhookAllow, body.url),
    },
    ({ deps, user, body }) => createEndpoint(deps, user, body),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/webhook-endpoint/{id}/',
      tags,
      access: 'webhook.view',
      params: IdParams,
      response: WebhookEndpoint,
      catalogue: [],
      summary: 'One webhook endpoint',
    },
    async ({ deps, user, params }) => toEndpoint(await findEndpoint(deps.db, user, params.id)),
  );

  defineRoute(
    app,
    {
      method: ['patch', 'put'],
      path: '/webhook-endpoint/{id}/',
      tags,
      access: 'webhook.manage',
      params: IdParams,
      body: WebhookEndpointUpdate,
      response: WebhookEndpoint,
      catalogue: [],
      summary: 'Change a webhook endpoint (url, events, active)',
      description: TARGET_DOC,
      prepare: ({ deps, body }) => checkTarget(deps.config.webhookAllow, body.url),
    },
    ({ deps, user, params, body }) => updateEndpoint(deps, user, params.id, body),
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/webhook-endpoint/{id}/',
      tags,
      access: 'webhook.manage',
      params: IdParams,
      response: SuccessMessage,
      catalogue: [],
      summary: 'Remove a webhook endpoint and its queued deliveries',
      description: 'To stop deliveries but keep the history, PATCH `is_active: false` instead.',
    },
    async ({ deps, user, params }) => {
      await deleteEndpoint(deps, user, params.id);
      return { success: true, message: `Webhook endpoint ${params.id} removed` };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/webhook-delivery/',
      tags,
      access: 'webhook.view',
      query: WebhookDeliveryQuery,
      response: WebhookDeliveryList,
      catalogue: [],
      summary: 'Outbound event deliveries with their attempts',
      description: 'Newest first. Filters: status (pending, delivered, dead), endpoint, package, company (staff).',
    },
    async ({ deps, user, query, c }) => {
      const { total, rows } = await listDeliveries(deps.db, user, query);
      return { count: total, ...pageLinks(c.req.url, query.page, query.page_size, total), results: rows };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/webhook-delivery/{id}/',
      tags,
      access: 'webhook.view',
      params: IdParams,
      response: WebhookDelivery,
      catalogue: [],
      summary: 'One event delivery',
    },
    async ({ deps, user, params }) => toDelivery(await findDelivery(deps.db, user, params.id)),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/webhook-delivery/{id}/replay/',
      tags,
      access: 'webhook.manage',
      params: IdParams,
      response: WebhookDelivery,
      catalogue: [],
      summary: 'Send an event again',
      description:
        'Queues the delivery now with a fresh allowance of attempts, whatever its state (a receiver that lost it, or one that was down past the last retry). The event id stays the same.',
    },
    ({ deps, user, params }) => replayDelivery(deps, user, params.id),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/company-api-key/',
      tags,
      access: 'webhook.view',
      query: z.object({ company: z.coerce.number().int().positive().optional() }),
      response: ApiKeyList,
      catalogue: [],
      summary: "A company's API keys (never the keys themselves)",
    },
    async ({ deps, user, query }) => {
      const results = await listApiKeys(deps.db, user, query.company);
      return { count: results.length, results };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/company-api-key/',
      tags,
      access: 'webhook.manage',
      body: ApiKeyCreate,
      response: ApiKeyCreated,
      status: 201,
      catalogue: [],
      summary: 'Make an API key for company-key/package/ (answered once)',
      description:
        'The key is shown only in this answer; the server keeps its SHA-256. A company login makes keys for itself; staff name `company`.',
    },
    async ({ deps, user, body }) => {
      const { row, key } = await createApiKey(deps, user, body.company, body.name);
      return { success: true, message: 'Store this key now: it is not shown again', key, ...toApiKey(row) };
    },
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/company-api-key/{id}/',
      tags,
      access: 'webhook.manage',
      params: IdParams,
      response: ApiKey,
      catalogue: [],
      summary: 'Revoke an API key (at once)',
    },
    ({ deps, user, params }) => revokeApiKey(deps, user, params.id),
  );
}
