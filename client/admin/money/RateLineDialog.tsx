import { useState } from 'preact/hooks';
import type { z } from 'zod';
import { DEFAULT_VOLUMETRIC_DIVISOR } from '../../../shared/money';
import { DeliveryRateCreate, type DeliveryRate } from '../../../shared/schemas/money';
import { api, formErrors } from '../../api/client';
import { zodErrors } from '../../app/zodErrors';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { CheckField, SelectField, TextField } from '../../ui/Field';
import { majorText, parseMoney } from './format';
import { MoneyField } from './MoneyField';
import type { RefData } from './refs';

export type RateLine = z.infer<typeof DeliveryRate>;

/** One rate-card line: where it applies (zone, package type), its weight band and its prices. */
export function RateLineDialog({
  line,
  company,
  currency,
  zones,
  types,
  units,
  onClose,
  onSaved,
}: {
  line: RateLine | null;
  company: number | null;
  currency: string;
  zones: RefData;
  types: RefData;
  units: RefData;
  onClose: () => void;
  onSaved: (line: RateLine) => void;
}) {
  const [f, setF] = useState({
    name: line?.name ?? '',
    zone: line?.zone != null ? String(line.zone) : '',
    package_type: line?.package_type != null ? String(line.package_type) : '',
    unit: line?.unit != null ? String(line.unit) : '',
    min_weight: String(line?.min_weight ?? 0),
    max_weight: line?.max_weight != null ? String(line.max_weight) : '',
    base: majorText(line?.base_cents, currency),
    per_unit: majorText(line?.per_unit_cents ?? 0, currency),
    volumetric_divisor: String(line?.volumetric_divisor ?? DEFAULT_VOLUMETRIC_DIVISOR),
    is_active: line?.is_active ?? true,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (v: string | boolean) => setF((p) => ({ ...p, [k]: v }));
  const num = (s: string) => (s.trim() === '' ? null : Number(s));

  const save = async (e: Event) => {
    e.preventDefault();
    const base = parseMoney(f.base, currency);
    const perUnit = parseMoney(f.per_unit || '0', currency);
    const body = {
      name: f.name,
      company,
      zone: num(f.zone),
      package_type: num(f.package_type),
      unit: num(f.unit),
      min_weight: num(f.min_weight) ?? 0,
      max_weight: num(f.max_weight),
      base_cents: base,
      per_unit_cents: perUnit,
      currency,
      volumetric_divisor: num(f.volumetric_divisor),
      is_active: f.is_active,
    };
    const local: Record<string, string> = {};
    if (base == null) local.base_cents = `Enter an amount such as 12.50`;
    if (perUnit == null) local.per_unit_cents = `Enter an amount such as 1.20`;
    const parsed = DeliveryRateCreate.safeParse(body);
    const errs = { ...(parsed.success ? {} : zodErrors(parsed.error)), ...local };
    if (body.max_weight != null && body.max_weight <= body.min_weight) errs.max_weight ??= 'Must be above the starting weight';
    if (Object.keys(errs).length) {
      setErrors(errs);
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const saved = line ? await api.patch<RateLine>(`delivery-rate/${line.id}/`, body) : await api.post<RateLine>('delivery-rate/', body);
      onSaved(saved);
    } catch (err) {
      setErrors(formErrors(err));
    } finally {
      setBusy(false);
    }
  };

  const unitSymbol = f.unit ? (units.options.find((o) => o.value === f.unit)?.label ?? 'units') : 'kg';
  return (
    <Dialog
      title={line ? 'Edit rate line' : 'New rate line'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" busy={busy} form="rate-line-form">
            {line ? 'Save line' : 'Add line'}
          </Button>
        </>
      }
    >
      <form id="rate-line-form" class="form-grid" onSubmit={(e) => void save(e)} noValidate>
        {errors._ && (
          <div class="form-error wide" role="alert" data-testid="form-error">
            {errors._}
          </div>
        )}
        <SelectField label="Zone" value={f.zone} onValue={set('zone')} options={zones.options} placeholder="Any zone" error={errors.zone} />
        <SelectField
          label="Package type"
          value={f.package_type}
          onValue={set('package_type')}
          options={types.options}
          placeholder="Any package type"
          error={errors.package_type}
        />
        <SelectField
          label="Unit"
          value={f.unit}
          onValue={set('unit')}
          options={units.options}
          placeholder="Kilograms (kg)"
          error={errors.unit}
          hint="The unit the weight band is written in"
        />
        <TextField label="Name" value={f.name} onValue={set('name')} error={errors.name} hint="Optional, e.g. Metro small parcels" />
        <TextField
          label={`From weight (${unitSymbol})`}
          type="number"
          min="0"
          step="any"
          value={f.min_weight}
          onValue={set('min_weight')}
          error={errors.min_weight}
          required
        />
        <TextField
          label={`Up to weight (${unitSymbol})`}
          type="number"
          min="0"
          step="any"
          value={f.max_weight}
          onValue={set('max_weight')}
          error={errors.max_weight}
          hint="Not included; empty for no upper limit"
        />
        <MoneyField
          label="Base price"
          currency={currency}
          value={f.base}
          onValue={set('base')}
          error={errors.base_cents}
          required
          hint="Covers the band's starting weight"
        />
        <MoneyField
          label="Per extra unit"
          currency={currency}
          value={f.per_unit}
          onValue={set('per_unit')}
          error={errors.per_unit_cents}
          hint="Each started unit above the starting weight"
        />
        <TextField
          label="Volumetric divisor"
          type="number"
          min="1"
          step="1"
          value={f.volumetric_divisor}
          onValue={set('volumetric_divisor')}
          error={errors.volumetric_divisor}
          hint="L×W×H (cm) ÷ divisor = volumetric kg"
        />
        <CheckField label="Active" checked={f.is_active} onValue={set('is_active')} error={errors.is_active} />
        {errors.currency && (
          <div class="form-error wide" role="alert">
            {errors.currency}
          </div>
        )}
      </form>
    </Dialog>
  );
}
