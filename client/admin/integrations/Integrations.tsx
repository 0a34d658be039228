import type { ComponentType } from 'preact';
import { can } from '../../app/access';
import type { Session } from '../../app/session';
import { ApiKeys } from './ApiKeys';
import { Deliveries } from './Deliveries';
import { Endpoints } from './Endpoints';
import { RecipientMessages } from './RecipientMessages';
import { ProofAtDoor } from './ProofAtDoor';
import { WebhookSecret } from './WebhookSecret';
import type { IntegrationProps } from './props';
import './integrations.css';

const TABS: readonly { id: string; label: string; Panel: ComponentType<IntegrationProps> }[] = [
  { id: 'endpoints', label: 'Webhook endpoints', Panel: Endpoints },
  { id: 'deliveries', label: 'Deliveries', Panel: Deliveries },
  { id: 'api-keys', label: 'API keys', Panel: ApiKeys },
  { id: 'secret', label: 'Signing secret', Panel: WebhookSecret },
  { id: 'recipients', label: 'Recipient messages', Panel: RecipientMessages },
  { id: 'proof', label: 'Proof at the door', Panel: ProofAtDoor },
];

/**
 * How a company's own systems talk to the courier: outbound webhooks (endpoints, deliveries with
 * replay), API keys for reading packages, and the secret that signs both directions.
 */
export default function Integrations({ session, tab }: { session: Session; tab: string }) {
  const current = TABS.find((t) => t.id === tab) ?? TABS[0]!;
  const props: IntegrationProps = {
    isCompany: session.user.role === 'company',
    canManage: can(session.user.role, 'webhook.manage'),
    companyId: session.user.company,
  };
  return (
    <section aria-labelledby="integrations-title">
      <div class="page-head">
        <h1 id="integrations-title">Integrations</h1>
      </div>
      <div class="tabs" role="tablist" aria-label="Integrations">
        {TABS.map((t) => (
          <a key={t.id} role="tab" href={`#/integrations/${t.id}`} aria-selected={t.id === current.id ? 'true' : 'false'}>
            {t.label}
          </a>
        ))}
      </div>
      <div role="tabpanel" aria-label={current.label}>
        <current.Panel key={current.id} {...props} />
      </div>
    </section>
  );
}
