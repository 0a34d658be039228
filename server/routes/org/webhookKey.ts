import { GenerateKeyBody, GenerateKeyResponse } from '../../../shared/schemas/org';
import { iso } from '../../clock';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { audit } from '../../services/audit/record';
import { generateWebhookKey } from '../../services/org/webhookKey';

export function webhookKeyRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/webhook-secret-key/generate-key/',
      tags: ['Webhook Secret Key'],
      access: 'webhook.manage',
      catalogue: ops('web/Webhook Secret Key', 'Generate Key'),
      body: GenerateKeyBody,
      response: GenerateKeyResponse,
      status: 201,
      summary: "Generate (or replace) a company's webhook signing key",
      description:
        'Answers the key once (64 hex characters); the previous key stops working at once. A company login acts for itself; admins send `company`.',
    },
    async ({ deps, user, body }) => {
      const made = await generateWebhookKey(deps, user, body.company);
      // Who replaced a key matters when a company's webhooks suddenly fail to verify; the key itself never enters the trail.
      await audit(
        deps.db,
        made.now,
        user.id,
        made.regenerated ? 'company.webhook_key_replace' : 'company.webhook_key_create',
        `company:${made.company}`,
      );
      return {
        success: true,
        message: made.regenerated ? 'A new key replaced the previous one' : 'Key generated; store it now, it is not shown again',
        company: made.company,
        secret_key: made.secret,
        regenerated: made.regenerated,
        created_at: iso(made.now) ?? '',
      };
    },
  );
}
