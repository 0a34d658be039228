import { useState } from 'preact/hooks';
import { api, formErrors } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { SelectField, TextField } from '../../../ui/Field';
import { REFS } from '../../resource/declarations';
import { useRefOptions } from '../../resource/refOptions';
import type { PackageRow } from '../columns';
import { PlaceField } from './PlaceField';
import { matchPlace, placeLabel, type PlaceOption } from './places';

/** The fields the office creates a parcel with, or corrects on one (the rest come from uploads and scans). */
const TEXT = ['customer_name', 'customer_phone', 'recipient_email', 'customer_address', 'description_of_goods'] as const;
type Key = (typeof TEXT)[number] | 'postcode' | 'count' | 'weight' | 'hawb' | 'company';
const LABELS: Record<Key, string> = {
  hawb: 'Tracking no (HAWB)',
  customer_name: 'Recipient',
  customer_phone: 'Phone',
  recipient_email: 'E-mail',
  customer_address: 'Address',
  description_of_goods: 'Goods',
  postcode: 'Postcode',
  count: 'Pieces',
  weight: 'Weight (kg)',
  company: 'Company',
};

function initial(p: PackageRow | null): Record<Key, string> {
  const v = (x: unknown) => (x == null ? '' : String(x));
  return {
    hawb: v(p?.hawb),
    customer_name: v(p?.customer_name),
    customer_phone: v(p?.customer_phone),
    // Kept beside the parcel, not in its answer (spec 2.1): a correction sends it only when typed.
    recipient_email: '',
    customer_address: v(p?.customer_address),
    description_of_goods: v(p?.description_of_goods),
    postcode: v(p?.postcode),
    count: v(p?.count ?? (p ? null : 1)),
    weight: v(p?.weight),
    company: v(p?.company),
  };
}

/**
 * Create one parcel (no `pkg`) or correct one (address, phone, weight...). A correction sends only
 * what changed; the server records it in the history and re-prices a weight change.
 */
export function PackageForm({
  pkg,
  isCompany,
  onClose,
  onSaved,
}: {
  pkg: PackageRow | null;
  isCompany: boolean;
  onClose: () => void;
  onSaved: (p: PackageRow) => void;
}) {
  const companies = useRefOptions(pkg || isCompany ? undefined : REFS.company);
  const start = initial(pkg);
  const [values, setValues] = useState(start);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: Key) => (v: string) => setValues((s) => ({ ...s, [k]: v }));
  // The suburb picked from master data's suggestions (a correction only): it brings its postcode with it.
  const [place, setPlace] = useState('');
  const [seen, setSeen] = useState<PlaceOption[]>([]);
  const remember = (o: PlaceOption[]) => setSeen((prev) => [...prev.filter((p) => !o.some((n) => n.id === p.id)), ...o]);
  const choosePlace = (text: string) => {
    setPlace(text);
    const picked = matchPlace(text, seen);
    if (picked && /^\d+$/.test(picked.postcode)) setValues((s) => ({ ...s, postcode: picked.postcode }));
  };

  const submit = async () => {
    const body: Record<string, unknown> = {};
    const errs: Record<string, string> = {};
    for (const k of Object.keys(values) as Key[]) {
      if (pkg && (values[k] === start[k] || k === 'hawb' || k === 'company')) continue;
      const raw = values[k].trim();
      if (k === 'hawb' || k === 'company' || (TEXT as readonly string[]).includes(k)) {
        if (k === 'company') {
          if (raw) body.company = Number(raw);
          continue;
        }
        body[k] = raw === '' ? (k === 'hawb' ? undefined : null) : raw;
        continue;
      }
      if (raw === '') {
        body[k] = null;
        continue;
      }
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0 || (k !== 'weight' && !Number.isInteger(n))) {
        errs[k] = k === 'weight' ? 'A weight in kg, e.g. 1.5' : 'A whole number';
        continue;
      }
      body[k] = n;
    }
    if (!pkg && !values.hawb.trim()) errs.hawb = 'Required: the number on the label';
    if (pkg && place.trim()) {
      const picked = matchPlace(place, seen);
      if (!picked) errs.place = 'Choose a suburb from the list (type part of its name or its postcode)';
      else if (picked.id !== pkg.suburb) body.suburb = picked.id;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;
    if (pkg && Object.keys(body).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    try {
      const saved = pkg ? await api.patch<PackageRow>(`package/${pkg.id}/`, body) : await api.post<PackageRow>('package/', body);
      onSaved(saved);
    } catch (err) {
      setErrors(formErrors(err));
    } finally {
      setBusy(false);
    }
  };

  const text = (k: Key, extra: Record<string, unknown> = {}) => (
    <TextField name={k} label={LABELS[k]} value={values[k]} onValue={set(k)} error={errors[k]} {...extra} />
  );
  return (
    <Dialog
      title={pkg ? `Correct parcel ${pkg.hawb}` : 'New package'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Back</Button>
          <Button variant="primary" busy={busy} onClick={() => void submit()} data-testid="package-save">
            {pkg ? 'Save corrections' : 'Create package'}
          </Button>
        </>
      }
    >
      <div class="form-grid">
        {!pkg && text('hawb', { required: true, autoComplete: 'off' })}
        {!pkg && !isCompany && (
          <SelectField
            name="company"
            label={LABELS.company}
            value={values.company}
            onValue={set('company')}
            options={companies.options}
            placeholder="No company"
            error={errors.company}
          />
        )}
        {text('customer_name')}
        {text('customer_phone', { type: 'tel', inputMode: 'tel' })}
        {text('recipient_email', {
          type: 'email',
          inputMode: 'email',
          hint: pkg ? 'Empty: keep the one on file' : 'Where the recipient’s messages go',
        })}
        {text('customer_address', { wide: true })}
        {pkg && (
          <PlaceField
            value={place}
            onValue={choosePlace}
            onOptions={remember}
            shipperWrote={pkg.postcode_name}
            current={
              pkg.suburb_name
                ? placeLabel({
                    id: pkg.suburb ?? 0,
                    name: pkg.suburb_name,
                    postcode: String(pkg.postcode ?? ''),
                    state_name: pkg.state_name,
                  })
                : null
            }
            postcode={values.postcode}
            error={errors.place}
          />
        )}
        {text('postcode', { inputMode: 'numeric' })}
        {text('weight', { inputMode: 'decimal' })}
        {text('count', { inputMode: 'numeric' })}
        {text('description_of_goods', { wide: true })}
      </div>
      {errors._ && (
        <p class="error" role="alert">
          {errors._}
        </p>
      )}
    </Dialog>
  );
}
