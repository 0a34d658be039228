import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { ApiKey, ApiKeyCreated } from '../../../shared/schemas/webhooks';
import { api, errorMessage, formErrors } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { DataTable, type Column } from '../../ui/DataTable';
import { ConfirmDialog, Dialog } from '../../ui/Dialog';
import { SelectField, TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { useRefData } from '../money/refs';
import type { IntegrationProps } from './props';
import { ShownOnce } from './ShownOnce';
import { day, shortDateTime } from '../../ui/when';

type Key = z.infer<typeof ApiKey>;
type Created = z.infer<typeof ApiKeyCreated>;

/** API keys for `company-key/package/`: made here (shown once), listed by prefix, revoked at once. */
export function ApiKeys({ isCompany, canManage }: IntegrationProps) {
  const companies = useRefData('company', !isCompany);
  const [company, setCompany] = useState('');
  const [keys, setKeys] = useState<Key[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.get<{ results: Key[] }>('company-api-key/', { company }).then((r) => {
      setKeys(r.results);
      setError(null);
    }, setError);
  }, [company, tick]);

  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    try {
      await api.delete(`company-api-key/${revoking.id}/`);
      toast('Key revoked', 'ok');
      setRevoking(null);
      setTick((n) => n + 1);
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  const columns: Column<Key>[] = [
    { key: 'name', label: 'Name', render: (k) => k.name || <span class="muted">—</span> },
    { key: 'prefix', label: 'Key', render: (k) => <span class="mono">{k.prefix}…</span> },
    ...(isCompany ? [] : [{ key: 'company', label: 'Company', render: (k: Key) => companies.name(k.company) }]),
    { key: 'created_at', label: 'Created', render: (k) => shortDateTime(k.created_at) },
    {
      key: 'last_used_at',
      label: 'Last used',
      render: (k) => (k.last_used_at ? shortDateTime(k.last_used_at) : <span class="muted">Never</span>),
    },
    {
      key: 'revoked_at',
      label: 'Status',
      render: (k) => (k.revoked_at ? <Badge tone="muted">Revoked {day(k.revoked_at)}</Badge> : <Badge tone="ok">Active</Badge>),
    },
  ];

  return (
    <>
      <p class="integration-intro muted">
        Your systems read your packages from <code>GET /api/company-key/package/</code> with the header <code>X-Api-Key</code>. Give each
        system its own key so one can be revoked without the others.
      </p>
      <div class="filters-bar">
        {!isCompany && (
          <SelectField
            label="Company"
            name="filter-company"
            value={company}
            onValue={setCompany}
            options={companies.options}
            placeholder="All companies"
          />
        )}
        <span class="spacer" />
        {canManage && (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New API key
          </Button>
        )}
      </div>
      {error ? (
        <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />
      ) : !keys ? (
        <Loading />
      ) : keys.length === 0 ? (
        <div class="card">
          <Empty title="No API keys yet" />
        </div>
      ) : (
        <DataTable<Key>
          columns={columns}
          rows={keys}
          rowKey={(k) => k.id}
          caption="API keys"
          actions={
            canManage
              ? (k) =>
                  k.revoked_at ? null : (
                    <Button size="small" variant="ghost" onClick={() => setRevoking(k)}>
                      Revoke
                    </Button>
                  )
              : undefined
          }
        />
      )}
      {creating && (
        <CreateKeyDialog
          isCompany={isCompany}
          companies={companies.options}
          initialCompany={company}
          onClose={() => {
            setCreating(false);
            setTick((n) => n + 1);
          }}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke ${revoking.name || revoking.prefix}?`}
          danger
          busy={busy}
          confirmLabel="Revoke"
          onConfirm={() => void revoke()}
          onClose={() => setRevoking(null)}
          message={
            <p>Calls with this key are refused from now on. This cannot be undone; make a new key if a system still needs access.</p>
          }
        />
      )}
    </>
  );
}

function CreateKeyDialog({
  isCompany,
  companies,
  initialCompany,
  onClose,
}: {
  isCompany: boolean;
  companies: { value: string; label: string }[];
  initialCompany: string;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [company, setCompany] = useState(initialCompany);
  const [created, setCreated] = useState<Created | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!isCompany && !company) {
      setErrors({ company: 'Choose the company' });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      setCreated(
        await api.post<Created>('company-api-key/', {
          ...(isCompany ? {} : { company: Number(company) }),
          ...(name.trim() ? { name: name.trim() } : {}),
        }),
      );
    } catch (err) {
      setErrors(formErrors(err));
    } finally {
      setBusy(false);
    }
  };
  if (created) {
    return (
      <Dialog
        title="API key created"
        onClose={onClose}
        footer={
          <Button variant="primary" onClick={onClose}>
            I have stored it
          </Button>
        }
      >
        <ShownOnce label={`Key ${created.name ? `“${created.name}”` : ''}`} value={created.key} />
      </Dialog>
    );
  }
  return (
    <Dialog
      title="New API key"
      narrow
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="key-form" busy={busy}>
            Create key
          </Button>
        </>
      }
    >
      <form id="key-form" class="stack" onSubmit={(e) => void submit(e)} noValidate>
        {errors._ && (
          <div class="form-error" role="alert">
            {errors._}
          </div>
        )}
        {!isCompany && (
          <SelectField
            label="Company"
            name="company"
            value={company}
            onValue={setCompany}
            options={companies}
            placeholder="Choose a company"
            error={errors.company}
            required
          />
        )}
        <TextField label="Name" value={name} onValue={setName} error={errors.name} hint="Which system uses it, e.g. Warehouse ERP" />
      </form>
    </Dialog>
  );
}
