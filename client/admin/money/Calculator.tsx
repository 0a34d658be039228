import { useState } from 'preact/hooks';
import type { z } from 'zod';
import { QuoteBody, type Quote } from '../../../shared/schemas/money';
import { api, formErrors } from '../../api/client';
import type { Session } from '../../app/session';
import { zodErrors } from '../../app/zodErrors';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { money } from './format';
import { useRefData } from './refs';
import './money.css';

type QuoteAnswer = z.infer<typeof Quote>;

const kg = (n: number) => `${n.toLocaleString(undefined, { maximumFractionDigits: 3 })} kg`;

/** Prices a parcel on the card that would charge it (POST delivery-rate/quote/), before it is sent. */
export default function Calculator({ session }: { session: Session }) {
  const isCompany = session.user.role === 'company';
  const companies = useRefData('company', !isCompany);
  const zones = useRefData('zone');
  const types = useRefData('package_type');
  const [f, setF] = useState({ company: '', zone: '', package_type: '', weight: '', length: '', width: '', height: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [quote, setQuote] = useState<QuoteAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (v: string) => setF((p) => ({ ...p, [k]: v }));
  const num = (s: string) => (s.trim() === '' ? null : Number(s));

  const submit = async (e: Event) => {
    e.preventDefault();
    const body = {
      company: isCompany ? undefined : num(f.company),
      zone: num(f.zone),
      package_type: num(f.package_type),
      weight: num(f.weight),
      length: num(f.length),
      width: num(f.width),
      height: num(f.height),
    };
    const parsed = QuoteBody.safeParse(body);
    const errs = parsed.success ? {} : zodErrors(parsed.error);
    if (body.weight == null && (body.length == null || body.width == null || body.height == null))
      errs.weight ??= 'Enter the weight or all three dimensions';
    if (Object.keys(errs).length) {
      setErrors(errs);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      setQuote(await api.post<QuoteAnswer>('delivery-rate/quote/', body));
    } catch (err) {
      setErrors(formErrors(err));
      setQuote(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="calc-title">
      <div class="page-head">
        <h1 id="calc-title">Price calculator</h1>
      </div>
      <div class="quote-layout">
        <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-label="Parcel">
          {errors._ && (
            <div class="form-error" role="alert" style={{ marginBottom: '0.75rem' }}>
              {errors._}
            </div>
          )}
          <div class="form-grid">
            {!isCompany && (
              <SelectField
                label="Company"
                name="company"
                value={f.company}
                onValue={set('company')}
                options={companies.options}
                placeholder="Default card"
                error={errors.company}
              />
            )}
            <SelectField
              label="Zone"
              name="zone"
              value={f.zone}
              onValue={set('zone')}
              options={zones.options}
              placeholder="No zone"
              error={errors.zone}
            />
            <SelectField
              label="Package type"
              name="package_type"
              value={f.package_type}
              onValue={set('package_type')}
              options={types.options}
              placeholder="Any"
              error={errors.package_type}
            />
            <TextField
              label="Weight (kg)"
              type="number"
              min="0"
              step="any"
              value={f.weight}
              onValue={set('weight')}
              error={errors.weight}
            />
            <TextField
              label="Length (cm)"
              type="number"
              min="0"
              step="any"
              value={f.length}
              onValue={set('length')}
              error={errors.length}
            />
            <TextField label="Width (cm)" type="number" min="0" step="any" value={f.width} onValue={set('width')} error={errors.width} />
            <TextField
              label="Height (cm)"
              type="number"
              min="0"
              step="any"
              value={f.height}
              onValue={set('height')}
              error={errors.height}
            />
          </div>
          <div class="row end" style={{ marginTop: '1rem' }}>
            <Button variant="primary" type="submit" busy={busy}>
              Get price
            </Button>
          </div>
        </form>
        <div class="card" aria-live="polite" data-testid="quote-result">
          {!quote ? (
            <p class="muted">
              Enter a parcel and press “Get price”. The billed weight is the larger of the actual and the volumetric weight.
            </p>
          ) : quote.price_cents == null ? (
            <>
              <div class="quote-none">No rate applies</div>
              <p class="muted">{quote.message}. Add a line for this zone and weight to the rate card.</p>
            </>
          ) : (
            <>
              <div class="muted">Price</div>
              <div class="quote-price" data-testid="quote-price">
                {money(quote.price_cents, quote.currency)}
              </div>
              <div class="row" style={{ margin: '0.5rem 0 0.75rem' }}>
                <Badge tone="info">{quote.source === 'company' ? "Company's card" : 'Default card'}</Badge>
                <span class="muted">rate line #{quote.rate}</span>
              </div>
              <dl class="dl">
                <dt>Chargeable weight</dt>
                <dd>{kg(quote.chargeable_weight)}</dd>
                <dt>Volumetric weight</dt>
                <dd>{kg(quote.volumetric_weight)}</dd>
                {quote.units != null && (
                  <>
                    <dt>Units on the band</dt>
                    <dd>{quote.units}</dd>
                  </>
                )}
                {quote.extra_units != null && (
                  <>
                    <dt>Extra units billed</dt>
                    <dd>{quote.extra_units}</dd>
                  </>
                )}
              </dl>
            </>
          )}
        </div>
      </div>
    </section>
  );
}
