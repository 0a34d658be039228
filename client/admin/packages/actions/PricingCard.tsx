import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { ParcelPricing } from '../../../../shared/schemas/pricing';
import { STAFF_ROLES, type Role } from '../../../../shared/roles';
import { api, errorMessage, fieldErrors } from '../../../api/client';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { Field, TextField } from '../../../ui/Field';
import { toast } from '../../../ui/toast';
import { money } from '../../money/format';
import type { PackageRow } from '../columns';

type Pricing = z.infer<typeof ParcelPricing>;
const REASONS: Record<string, string> = {
  no_rate_line: 'no rate line fits its zone and weight',
  insufficient_balance: "its company's prepaid wallet could not pay",
};

/**
 * What the parcel costs and what was charged; staff adjust its weight with a reason (re-priced once).
 * `version` moves whenever the page reloads the parcel (a correction, an action): the price is read
 * again then, so the card never shows a figure the Details card has moved on from (issue 36).
 */
export function PricingCard({ pkg, role, version, onChanged }: { pkg: PackageRow; role: Role; version: number; onChanged: () => void }) {
  const [pricing, setPricing] = useState<Pricing | null>(null);
  const [adjusting, setAdjusting] = useState(false);
  useEffect(() => {
    let live = true;
    api.get<Pricing>(`package/${pkg.id}/pricing/`).then(
      (p) => {
        if (live) setPricing(p);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [pkg.id, pkg.weight, pkg.status, pkg.price, pkg.zone, version]);
  if (!pricing || pricing.state === 'none') return null;
  const open = !['delivered', 'returned_to_sender', 'cancelled'].includes(pkg.status);
  const cur = pricing.currency ?? 'AUD';
  return (
    <div class="card" data-testid="pricing-card">
      <h2 style={{ marginTop: 0 }}>Price</h2>
      {pricing.state === 'unpriced' ? (
        <p>
          <Badge tone="warn">Unpriced</Badge> Not charged: {REASONS[pricing.reason] ?? pricing.reason}. It is listed under{' '}
          <a href="#/money/unpriced">Unpriced parcels</a> and is charged once when a rate line fits.
        </p>
      ) : (
        <p>
          <Badge tone="ok">Priced</Badge> {money(pricing.price_cents ?? 0, cur)} · charged so far {money(pricing.charged_cents, cur)}
        </p>
      )}
      {open && STAFF_ROLES.includes(role) && (
        <Button onClick={() => setAdjusting(true)}>{pkg.landed ? 'Record measured weight' : 'Adjust weight'}</Button>
      )}
      {adjusting && (
        <WeightDialog
          pkg={pkg}
          onClose={() => setAdjusting(false)}
          onDone={() => {
            setAdjusting(false);
            onChanged();
          }}
        />
      )}
    </div>
  );
}

function WeightDialog({ pkg, onClose, onDone }: { pkg: PackageRow; onClose: () => void; onDone: () => void }) {
  const [weight, setWeight] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const kg = Number(weight);
    const errs: Record<string, string> = {};
    if (weight.trim() === '' || !Number.isFinite(kg) || kg < 0) errs.weight = 'A weight in kg, e.g. 2.5';
    if (!reason.trim()) errs.reason = 'Say why: it is kept in the history and the audit log';
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      await api.post(`package/${pkg.id}/weight-adjustment/`, { weight: kg, reason: reason.trim() });
      toast(`Parcel ${pkg.hawb}: weight ${kg} kg recorded and re-priced`, 'ok');
      onDone();
    } catch (err) {
      const fe = fieldErrors(err);
      setErrors(Object.keys(fe).length ? fe : { reason: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={`Weight of ${pkg.hawb}`}
      narrow
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Back</Button>
          <Button variant="primary" busy={busy} onClick={() => void submit()}>
            Save and re-price
          </Button>
        </>
      }
    >
      <div class="stack">
        <p>
          {pkg.landed
            ? 'The parcel is at the depot: the weight measured there is what is billed.'
            : 'The parcel has not reached the depot yet.'}{' '}
          Now {pkg.weight ?? '—'} kg. The difference in price is charged or refunded once.
        </p>
        <TextField
          name="weight"
          label="Weight (kg)"
          value={weight}
          onValue={setWeight}
          inputMode="decimal"
          error={errors.weight}
          required
        />
        <Field label="Reason" required error={errors.reason}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              name="reason"
              class="input"
              rows={2}
              maxLength={1000}
              value={reason}
              aria-invalid={invalid ? 'true' : undefined}
              aria-describedby={describedBy}
              onInput={(e) => setReason((e.currentTarget as HTMLTextAreaElement).value)}
            />
          )}
        </Field>
      </div>
    </Dialog>
  );
}
