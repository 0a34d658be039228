import { useState } from 'preact/hooks';
import { api, errorMessage } from '../../api/client';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { useRefData } from '../money/refs';
import type { IntegrationProps } from './props';
import { ShownOnce } from './ShownOnce';

interface Generated {
  message: string;
  company: number;
  secret_key: string;
  regenerated: boolean;
  created_at: string;
}

/**
 * The company's signing secret: it signs outbound events and checks inbound webhook calls. The
 * server answers it once; generating again replaces it at once, so a confirmation comes first.
 */
export function WebhookSecret({ isCompany, canManage }: IntegrationProps) {
  const companies = useRefData('company', !isCompany);
  const [company, setCompany] = useState('');
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [made, setMade] = useState<Generated | null>(null);

  const generate = async () => {
    setBusy(true);
    setError('');
    try {
      setMade(await api.post<Generated>('webhook-secret-key/generate-key/', isCompany ? {} : { company: Number(company) }));
      setConfirm(false);
    } catch (err) {
      setError(errorMessage(err));
      setConfirm(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="card stack" style={{ maxWidth: 760 }}>
      <p style={{ margin: 0 }}>
        Outbound events carry <code>X-Courier-Signature: sha256=…</code>, an HMAC-SHA256 of <code>timestamp.body</code> keyed with this
        secret; inbound webhook calls must be signed the same way. The courier keeps it, but never shows it again.
      </p>
      {!isCompany && (
        <SelectField
          label="Company"
          name="secret-company"
          value={company}
          onValue={(v) => {
            setCompany(v);
            setMade(null);
          }}
          options={companies.options}
          placeholder="Choose a company"
        />
      )}
      {error && (
        <div class="form-error" role="alert">
          {error}
        </div>
      )}
      {made ? (
        <>
          <p class="note" style={{ margin: 0 }}>
            {made.message}
          </p>
          <ShownOnce label="Signing secret" value={made.secret_key} />
        </>
      ) : canManage ? (
        <div>
          <Button variant="primary" disabled={!isCompany && !company} onClick={() => setConfirm(true)}>
            Generate secret
          </Button>
        </div>
      ) : (
        <p class="muted">Your role cannot generate secrets.</p>
      )}
      {confirm && (
        <ConfirmDialog
          title="Generate a new signing secret?"
          busy={busy}
          confirmLabel="Generate"
          onConfirm={() => void generate()}
          onClose={() => setConfirm(false)}
          message={<p>If a secret exists it stops working at once: update every receiver with the new one straight away.</p>}
        />
      )}
    </div>
  );
}
