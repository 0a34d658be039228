import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import { formatAbn } from '../../../shared/gst';
import { BusinessProfileUpdate, type BusinessProfile } from '../../../shared/schemas/business';
import { api, formErrors } from '../../api/client';
import { zodErrors } from '../../app/zodErrors';
import { Button } from '../../ui/Button';
import { TextAreaField, TextField } from '../../ui/Field';
import { ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { gstPercentText, parseGstPercent } from './gstRate';
import './settings.css';
import { dateTime } from '../../ui/when';

type Profile = z.infer<typeof BusinessProfile>;
type Form = Omit<Record<keyof Profile, string>, 'prices_include_gst' | 'updated_at' | 'gst_rate_bp'> & { gst_percent: string };

const PATH = 'settings/business-profile/';
const TEXT_KEYS = [
  'legal_name',
  'trading_name',
  'abn',
  'address',
  'email',
  'phone',
  'bank_account_name',
  'bank_bsb',
  'bank_account_number',
  'payment_instructions',
] as const;

function toForm(p: Profile): Form {
  const f = Object.fromEntries(TEXT_KEYS.map((k) => [k, p[k]])) as Omit<Form, 'gst_percent'>;
  // Shown as printed (51 824 753 556, 062-000); the server stores digits only.
  return {
    ...f,
    abn: formatAbn(p.abn),
    bank_bsb: p.bank_bsb.length === 6 ? `${p.bank_bsb.slice(0, 3)}-${p.bank_bsb.slice(3)}` : p.bank_bsb,
    gst_percent: gstPercentText(p.gst_rate_bp),
  };
}

const same = (a: Form, b: Form) => (Object.keys(a) as (keyof Form)[]).every((k) => a[k].trim() === b[k].trim());

/** Straight to the first field that needs fixing: on a phone it may be far above the button. */
function focusFirstInvalid(): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('.profile-form [aria-invalid="true"]')?.focus());
}

const savedAt = (iso: string | null) => (iso ? dateTime(iso) : null);

/**
 * `#/settings/business-profile` (admins): the courier's legal and payment details and its GST rate,
 * printed as the seller on every tax invoice (GET|PATCH settings/business-profile/). Issued invoices
 * are re-rendered with the current profile, so the preview on the right is what the next PDF shows.
 */
export default function BusinessProfileScreen() {
  const [saved, setSaved] = useState<Profile | null>(null);
  const [f, setF] = useState<Form | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [justSaved, setJustSaved] = useState(false);

  useEffect(() => {
    let live = true;
    setLoadError(null);
    api.get<Profile>(PATH).then(
      (p) => {
        if (live) {
          setSaved(p);
          setF(toForm(p));
        }
      },
      (err: unknown) => {
        if (live) setLoadError(err);
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  if (loadError) return <ErrorState error={loadError} onRetry={() => setAttempt((n) => n + 1)} />;
  if (!saved || !f) return <Loading label="Loading the business profile…" />;

  const dirty = !same(f, toForm(saved));
  const set = (k: keyof Form) => (v: string) => {
    setF((p) => (p ? { ...p, [k]: v } : p));
    setJustSaved(false);
    // The message goes once the field is touched again; the rest stay until the next save.
    setErrors((e) => {
      const { [k === 'gst_percent' ? 'gst_rate_bp' : k]: _gone, ...rest } = e;
      return rest;
    });
  };

  const save = async (e: Event) => {
    e.preventDefault();
    const gst = parseGstPercent(f.gst_percent);
    const body = { ...Object.fromEntries(TEXT_KEYS.map((k) => [k, f[k]])), gst_rate_bp: gst ?? 0 };
    const parsed = BusinessProfileUpdate.safeParse(body);
    const errs = parsed.success ? {} : zodErrors(parsed.error);
    if (gst == null) errs.gst_rate_bp = 'Enter a percentage from 0 to 100, at most 2 decimals (e.g. 10)';
    if (Object.keys(errs).length) {
      setErrors(errs);
      focusFirstInvalid();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const next = await api.patch<Profile>(PATH, body);
      setSaved(next);
      setF(toForm(next));
      setJustSaved(true);
      toast('Business profile saved', 'ok');
    } catch (err) {
      setErrors(formErrors(err));
      focusFirstInvalid();
    } finally {
      setBusy(false);
    }
  };

  const when = savedAt(saved.updated_at);
  const status = busy
    ? 'Saving…'
    : justSaved && !dirty
      ? `Saved ${when ?? ''}. New tax invoices, and any issued before your legal name and ABN were set, show these details.`
      : dirty
        ? 'Unsaved changes'
        : when
          ? `Last saved ${when}`
          : 'Not set up yet: tax invoices say what is missing.';

  return (
    <section aria-labelledby="profile-title">
      <div class="page-head">
        <h1 id="profile-title">Business profile</h1>
        <span class="muted">The seller on every tax invoice</span>
      </div>
      <div class="profile-layout">
        <form class="card profile-form" onSubmit={(e) => void save(e)} noValidate aria-label="Business profile">
          <fieldset>
            <legend>Business</legend>
            <div class="form-grid">
              <TextField
                label="Legal name"
                name="legal_name"
                value={f.legal_name}
                onValue={set('legal_name')}
                error={errors.legal_name}
                maxLength={200}
                hint="As registered, e.g. Swift Parcels Pty Ltd"
                autoComplete="organization"
              />
              <TextField
                label="Trading name"
                name="trading_name"
                value={f.trading_name}
                onValue={set('trading_name')}
                error={errors.trading_name}
                maxLength={200}
                hint="Printed as “Trading as …” when it differs"
              />
              <TextField
                label="ABN"
                name="abn"
                value={f.abn}
                onValue={set('abn')}
                error={errors.abn}
                inputMode="numeric"
                hint="11 digits; spaces are fine"
              />
              <TextField
                label="Phone"
                name="phone"
                type="tel"
                value={f.phone}
                onValue={set('phone')}
                error={errors.phone}
                maxLength={40}
                autoComplete="tel"
              />
              <TextField
                label="Accounts e-mail"
                name="email"
                type="email"
                value={f.email}
                onValue={set('email')}
                error={errors.email}
                autoComplete="email"
              />
              <TextAreaField
                label="Address"
                name="address"
                value={f.address}
                onValue={set('address')}
                error={errors.address}
                maxLength={500}
                wide
                rows={2}
                hint="Street, suburb, state and postcode"
              />
            </div>
          </fieldset>
          <fieldset>
            <legend>How customers pay</legend>
            <div class="form-grid">
              <TextField
                label="Account name"
                name="bank_account_name"
                value={f.bank_account_name}
                onValue={set('bank_account_name')}
                error={errors.bank_account_name}
                maxLength={200}
                hint="Empty: the legal name"
              />
              <TextField
                label="BSB"
                name="bank_bsb"
                value={f.bank_bsb}
                onValue={set('bank_bsb')}
                error={errors.bank_bsb}
                inputMode="numeric"
                hint="6 digits, e.g. 062-000"
              />
              <TextField
                label="Account number"
                name="bank_account_number"
                value={f.bank_account_number}
                onValue={set('bank_account_number')}
                error={errors.bank_account_number}
                inputMode="numeric"
                hint="5 to 10 digits"
              />
              <TextAreaField
                label="Payment instructions"
                name="payment_instructions"
                value={f.payment_instructions}
                onValue={set('payment_instructions')}
                error={errors.payment_instructions}
                maxLength={1000}
                wide
                rows={2}
                hint="Printed under the bank details, e.g. “Quote the invoice number”"
              />
            </div>
          </fieldset>
          <fieldset>
            <legend>GST</legend>
            <div class="form-grid">
              <TextField
                label="GST rate (%)"
                name="gst_percent"
                value={f.gst_percent}
                onValue={set('gst_percent')}
                error={errors.gst_rate_bp}
                inputMode="decimal"
                hint="Applies to statements generated from now on; issued ones keep their rate"
              />
              <p class="muted gst-note">
                Rate-card prices include GST: the GST on each invoice line is the price × rate ÷ (1 + rate), rounded to the cent.
              </p>
            </div>
          </fieldset>
          {/* Next to the button, not above the form: on a phone the top of the form is far off screen. */}
          {errors._ && (
            <div class="form-error" role="alert" data-testid="form-error">
              Not saved: {errors._}
            </div>
          )}
          <div class="profile-actions">
            <span
              class={`profile-status${justSaved && !dirty ? ' ok' : dirty ? ' dirty' : ''}`}
              role="status"
              aria-live="polite"
              data-testid="profile-status"
            >
              {status}
            </span>
            <Button
              onClick={() => {
                setF(toForm(saved));
                setErrors({});
              }}
              disabled={!dirty || busy}
            >
              Discard changes
            </Button>
            <Button variant="primary" type="submit" busy={busy} data-testid="profile-save">
              Save profile
            </Button>
          </div>
        </form>
        <SellerPreview f={f} />
      </div>
    </section>
  );
}

/** The seller block as the PDF prints it (server/services/money/documents.ts), from what is typed now. */
function SellerPreview({ f }: { f: Form }) {
  const legal = f.legal_name.trim();
  const trading = f.trading_name.trim();
  const abn = f.abn.replace(/\s+/g, '');
  const bsb = f.bank_bsb.replace(/[\s-]+/g, '');
  const account = f.bank_account_number.replace(/\s+/g, '');
  const contact = [f.email.trim(), f.phone.trim()].filter(Boolean).join('   ');
  return (
    <aside class="card invoice-preview" aria-labelledby="preview-title" data-testid="seller-preview">
      <h2 id="preview-title">On your tax invoices</h2>
      <p class="preview-title">TAX INVOICE</p>
      <p class={legal ? 'strong' : 'missing'}>{legal || '(business legal name not set)'}</p>
      {trading && trading !== legal && <p>Trading as {trading}</p>}
      <p class={abn ? '' : 'missing'}>{abn ? `ABN ${formatAbn(abn)}` : 'ABN not set'}</p>
      {f.address.trim() && <p class="pre">{f.address.trim()}</p>}
      {contact && <p>{contact}</p>}
      <h3>How to pay</h3>
      {bsb && account ? (
        <>
          <p>Account name: {f.bank_account_name.trim() || legal}</p>
          <p>
            BSB: {bsb.length === 6 ? `${bsb.slice(0, 3)}-${bsb.slice(3)}` : bsb}&nbsp;&nbsp; Account: {account}
          </p>
        </>
      ) : null}
      {f.payment_instructions.trim() && <p class="pre">{f.payment_instructions.trim()}</p>}
      {!(bsb && account) && !f.payment_instructions.trim() && <p class="missing">Payment details not set; contact us.</p>}
    </aside>
  );
}
