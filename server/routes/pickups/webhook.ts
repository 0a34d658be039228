import { z } from 'zod';
import { JSON_WEBHOOK } from '../../http/jsonLimits';
import { Package, PackageListAnswer, PickupListQuery } from '../../../shared/schemas/package';
import { WEBHOOK_WINDOW_SECONDS, WebhookPickupCreate, WebhookPickupUpdate } from '../../../shared/schemas/webhooks';
import { forbidden } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import type { AppEnv } from '../../http/env';
import { defineRoute } from '../../http/route';
import type { Context } from 'hono';
import { packagesByIds } from '../../services/packages/shape';
import { packagesFor } from '../../services/geo/senderView';
import { createPickup, updatePickup } from '../../services/pickups/create';
import { claimSignature, verifySignedCall, type VerifiedCall } from '../../services/webhooks/signature';
import { packagePage, withZone } from '../../services/packages/list';
import { pickupWhere } from '../../services/pickups/list';

const tags = ['Pickup Package by Webhook'];
const pw = (...names: string[]) => ops('web/Pickup Package by Webhook', ...names);

const SIGNED_DOC =
  "Called by a company's own system, without a login. Headers: `X-Courier-Company` (the company code, never its id), " +
  '`X-Courier-Timestamp` (unix seconds), `X-Courier-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` keyed with the ' +
  `company's webhook secret (webhook-secret-key/generate-key/). Timestamps more than ${WEBHOOK_WINDOW_SECONDS} s from the server time, ` +
  'a signature already used (replay) or one that does not match answer 401 and change nothing. A malformed body is a 400.';

const WebhookAnswer = z.object({ success: z.boolean(), message: z.string(), package: Package });

/** The raw body as the route layer read it (Hono caches it), verified before the transaction. */
async function verified(c: Context<AppEnv>, now: number): Promise<VerifiedCall> {
  const raw = new Uint8Array(await c.req.arrayBuffer());
  return verifySignedCall(
    c.get('deps').db,
    {
      company: c.req.header('x-courier-company'),
      timestamp: c.req.header('x-courier-timestamp'),
      signature: c.req.header('x-courier-signature'),
    },
    raw,
    now,
  );
}

/** A signed company call sees what a company login sees. */
const SENDER = { role: 'company' } as const;

export function pickupWebhookRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/pickup-package/company/',
      tags,
      access: 'package.view',
      query: PickupListQuery,
      response: PackageListAnswer,
      catalogue: pw('Login Company Pickup Package List'),
      summary: "The logged-in company's pickup packages",
      description:
        'Pickups requested by this company (by webhook, upload or screen), requested or collected unless `status` says otherwise. Company logins only.',
    },
    async ({ deps, user, query, c }) => {
      if (user.role !== 'company') throw forbidden('This list is for company logins; staff use pickup-package/');
      return packagePage(deps.db, user, pickupWhere(user, await withZone(deps, query)), query, c.req.url);
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/pickup-package/webhook/',
      tags,
      access: 'public',
      jsonLimits: JSON_WEBHOOK,
      body: WebhookPickupCreate,
      response: WebhookAnswer,
      status: 201,
      catalogue: pw('Create Pickup Package by Webhook'),
      summary: 'A company system requests a pickup (signed call)',
      description: `${SIGNED_DOC} Body: Package fields (hawb required, unique) and optional \`pickup_point\` (the company's). The parcel starts as pickup_requested.`,
      prepare: ({ c, deps }) => verified(c, deps.clock.now()),
    },
    async ({ deps, body, prepared }) => {
      await claimSignature(deps.db, prepared, deps.clock.now());
      const row = await createPickup(deps, prepared.companyId, body, { userId: null, deviceId: null });
      return {
        success: true,
        message: `Pickup ${row.hawb} requested`,
        package: (await packagesFor(deps.db, SENDER, await packagesByIds(deps.db, [row.id])))[0],
      };
    },
  );

  defineRoute(
    app,
    {
      method: ['patch', 'put'],
      path: '/pickup-package/webhook/',
      tags,
      access: 'public',
      jsonLimits: JSON_WEBHOOK,
      body: WebhookPickupUpdate,
      response: WebhookAnswer,
      catalogue: pw('Update Pickup Package by Webhook'),
      summary: 'A company system changes or cancels a pickup (signed call)',
      description: `${SIGNED_DOC} Body: \`hawb\` names the parcel (the company's own; anything else is 404); other Package fields and \`pickup_point\` change while it is pickup_requested (409 after); \`status: "cancelled"\` cancels it before the depot receives it.`,
      prepare: ({ c, deps }) => verified(c, deps.clock.now()),
    },
    async ({ deps, body, prepared }) => {
      await claimSignature(deps.db, prepared, deps.clock.now());
      const row = await updatePickup(deps, prepared.companyId, body, { userId: null, deviceId: null });
      return {
        success: true,
        message: `Pickup ${row.hawb} updated`,
        package: (await packagesFor(deps.db, SENDER, await packagesByIds(deps.db, [row.id])))[0],
      };
    },
  );
}
