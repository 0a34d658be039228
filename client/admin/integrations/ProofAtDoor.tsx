import { useEffect, useState } from 'preact/hooks';
import { MAX_DOOR_PHOTOS, NO_REQUIREMENTS, type ProofRequirements } from '../../../shared/door';
import { api, errorMessage } from '../../api/client';
import { Button } from '../../ui/Button';
import { CheckField, SelectField, TextField } from '../../ui/Field';
import { ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { useRefData } from '../money/refs';
import type { IntegrationProps } from './props';

/**
 * The proof every delivery of the company needs by default (issue 34): signature, photos, the
 * recipient's name, the parcel's barcode scanned at the door, an age check, a one-time code sent to
 * the recipient. A parcel may ask for more (`proof_requirements` when created or edited).
 */
export function ProofAtDoor({ isCompany }: IntegrationProps) {
  const companies = useRefData('company', !isCompany);
  const [company, setCompany] = useState('');
  const [form, setForm] = useState<ProofRequirements | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const query = isCompany ? '' : `?company=${company}`;
  const ready = isCompany || company !== '';

  useEffect(() => {
    if (!ready) return;
    setForm(null);
    api
      .get<{ requirements: ProofRequirements }>(`company-proof-rules/${query}`)
      .then((r) => setForm({ ...NO_REQUIREMENTS, ...r.requirements }))
      .catch(setError);
  }, [company]);

  const save = async () => {
    if (!form) return;
    setBusy(true);
    try {
      setForm((await api.patch<{ requirements: ProofRequirements }>(`company-proof-rules/${query}`, form)).requirements);
      toast('Proof at the door saved', 'ok');
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };
  const set = (patch: Partial<ProofRequirements>) => setForm((f) => (f ? { ...f, ...patch } : f));

  return (
    <div class="card" data-testid="proof-at-door">
      <h2>Proof at the door</h2>
      {!isCompany && (
        <SelectField
          label="Company"
          name="proof-company"
          value={company}
          onValue={setCompany}
          placeholder="Choose a company"
          options={companies.options}
        />
      )}
      {error ? (
        <ErrorState error={error} />
      ) : !ready ? null : !form ? (
        <Loading />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <CheckField label="Signature" checked={form.signature} onValue={(v) => set({ signature: v })} />
          <CheckField label="Recipient's name" checked={form.recipient_name} onValue={(v) => set({ recipient_name: v })} />
          <CheckField label="Scan the parcel's barcode at the door" checked={form.scan} onValue={(v) => set({ scan: v })} />
          <CheckField
            label='One-time code (sent to the recipient with "on its way")'
            checked={form.code}
            onValue={(v) => set({ code: v })}
          />
          <TextField
            label="Photos"
            type="number"
            min={0}
            max={MAX_DOOR_PHOTOS}
            value={String(form.photos)}
            onValue={(v) => set({ photos: Math.max(0, Math.min(MAX_DOOR_PHOTOS, Number(v) || 0)) })}
          />
          <TextField
            label="Minimum age (ID check; empty for none)"
            type="number"
            min={1}
            max={99}
            value={form.min_age == null ? '' : String(form.min_age)}
            onValue={(v) => set({ min_age: v.trim() === '' ? null : Number(v) })}
          />
          <Button variant="primary" type="submit" busy={busy}>
            Save proof rules
          </Button>
        </form>
      )}
    </div>
  );
}
