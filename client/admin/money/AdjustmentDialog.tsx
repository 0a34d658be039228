import { useEffect, useState } from 'preact/hooks';
import { AdjustmentBody } from '../../../shared/schemas/money';
import { api, formErrors } from '../../api/client';
import type { Page } from '../../api/paging';
import { zodErrors } from '../../app/zodErrors';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { Field, SelectField } from '../../ui/Field';
import { loadRefs } from '../resource/refOptions';
import { money, parseMoney } from './format';
import { MoneyField } from './MoneyField';
import type { InvoiceT } from './types';

/**
 * A credit or debit with a reason (a correction, a goodwill credit, the fix for a voided invoice).
 * The server appends a transaction and issues a numbered adjustment note; nothing is edited in place.
 */
export function AdjustmentDialog({
  companyId,
  currency: knownCurrency,
  invoiceId,
  onClose,
  onDone,
}: {
  companyId?: number;
  currency?: string;
  invoiceId?: number;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [companies, setCompanies] = useState<{ value: string; label: string; currency: string }[]>([]);
  const [company, setCompany] = useState(companyId != null ? String(companyId) : '');
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [invoice, setInvoice] = useState(invoiceId != null ? String(invoiceId) : '');
  const [invoices, setInvoices] = useState<InvoiceT[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    loadRefs('company').then(
      (rows) =>
        setCompanies(
          rows.map((r) => ({ value: String(r.id), label: `${String(r.name)} (${String(r.code)})`, currency: String(r.currency ?? 'AUD') })),
        ),
      () => undefined,
    );
  }, []);
  useEffect(() => {
    if (!company) {
      setInvoices([]);
      return;
    }
    api.get<Page<InvoiceT>>('invoice/', { company, page_size: 50 }).then(
      (p) => setInvoices(p.results),
      () => undefined,
    );
  }, [company]);
  const currency = companies.find((c) => c.value === company)?.currency ?? knownCurrency ?? 'AUD';

  const submit = async (e: Event) => {
    e.preventDefault();
    const cents = parseMoney(amount, currency);
    const body = {
      company: Number(company) || undefined,
      direction,
      amount_cents: cents,
      reason,
      ...(invoice ? { invoice: Number(invoice) } : {}),
    };
    const parsed = AdjustmentBody.safeParse(body);
    const errs = parsed.success ? {} : zodErrors(parsed.error);
    if (cents == null || cents <= 0) errs.amount_cents = 'Enter an amount above zero';
    if (Object.keys(errs).length) {
      setErrors(errs);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const res = await api.post<{ message: string }>('wallet-adjustment/', body);
      onDone(res.message);
    } catch (err) {
      setErrors(formErrors(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Wallet adjustment"
      narrow
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="adjust-form" busy={busy}>
            {direction === 'credit' ? 'Credit wallet' : 'Debit wallet'}
          </Button>
        </>
      }
    >
      <form id="adjust-form" class="stack" onSubmit={(e) => void submit(e)} noValidate>
        {errors._ && (
          <div class="form-error" role="alert">
            {errors._}
          </div>
        )}
        {companyId == null && (
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
        <fieldset class="field" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend class="label" style={{ fontWeight: 600, fontSize: '0.92rem' }}>
            Direction
          </legend>
          <div class="row">
            <label class="check">
              <input type="radio" name="direction" checked={direction === 'credit'} onChange={() => setDirection('credit')} />
              Credit (gives money back)
            </label>
            <label class="check">
              <input type="radio" name="direction" checked={direction === 'debit'} onChange={() => setDirection('debit')} />
              Debit (charges more)
            </label>
          </div>
        </fieldset>
        <MoneyField
          label="Amount"
          name="amount"
          currency={currency}
          value={amount}
          onValue={setAmount}
          error={errors.amount_cents}
          required
        />
        <Field label="Reason" error={errors.reason} required hint="Shown on the adjustment note the company receives">
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              class="input"
              value={reason}
              aria-invalid={invalid ? 'true' : undefined}
              aria-describedby={describedBy}
              onInput={(e) => setReason((e.currentTarget as HTMLTextAreaElement).value)}
            />
          )}
        </Field>
        {invoices.length > 0 && (
          <SelectField
            label="Corrects invoice"
            name="invoice"
            value={invoice}
            onValue={setInvoice}
            placeholder="None"
            error={errors.invoice}
            options={invoices.map((i) => ({
              value: String(i.id),
              label: `${i.number} · ${i.status} · ${money(i.total_cents, i.currency)}`,
            }))}
          />
        )}
      </form>
    </Dialog>
  );
}
