import { useEffect, useState } from 'preact/hooks';
import { CompanyPaymentBody, CompanyRechargeBody } from '../../../shared/schemas/money';
import { api, formErrors } from '../../api/client';
import type { Page } from '../../api/paging';
import { zodErrors } from '../../app/zodErrors';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextField, type Option } from '../../ui/Field';
import { loadRefs } from '../resource/refOptions';
import { money, parseMoney } from './format';
import { MoneyField } from './MoneyField';
import type { InvoiceT, TxnT, WalletT } from './types';

interface CompanyInfo {
  id: number;
  label: string;
  billing: 'prepaid' | 'postpaid';
  currency: string;
}

export interface TopUpResult {
  message: string;
  wallet: WalletT;
  transaction: TxnT;
  receipt: InvoiceT;
}

/**
 * Money received from a company: a recharge of a prepaid wallet or a payment on a postpaid account
 * (which may settle one issued statement). The route follows the company's billing type, which the
 * server checks again.
 */
export function TopUpDialog({ companyId, onClose, onDone }: { companyId?: number; onClose: () => void; onDone: (r: TopUpResult) => void }) {
  const [companies, setCompanies] = useState<CompanyInfo[]>([]);
  const [company, setCompany] = useState(companyId != null ? String(companyId) : '');
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const [note, setNote] = useState('');
  const [invoice, setInvoice] = useState('');
  const [openInvoices, setOpenInvoices] = useState<InvoiceT[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    loadRefs('company').then(
      (rows) =>
        setCompanies(
          rows.map((r) => ({
            id: r.id,
            label: `${String(r.name)} (${String(r.code)})`,
            billing: r.billing_type === 'postpaid' ? 'postpaid' : 'prepaid',
            currency: String(r.currency ?? 'AUD'),
          })),
        ),
      () => setErrors({ _: 'Companies could not be loaded' }),
    );
  }, []);
  const co = companies.find((c) => String(c.id) === company);
  useEffect(() => {
    setInvoice('');
    setOpenInvoices([]);
    if (!co || co.billing !== 'postpaid') return;
    api.get<Page<InvoiceT>>('invoice/', { company: co.id, status: 'issued', kind: 'statement', page_size: 100 }).then(
      (p) => setOpenInvoices(p.results),
      () => undefined,
    );
  }, [co?.id, co?.billing]);

  const currency = co?.currency ?? 'AUD';
  const picked = openInvoices.find((i) => String(i.id) === invoice);
  const options: Option[] = companies.map((c) => ({ value: String(c.id), label: c.label }));

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!co) {
      setErrors({ company: 'Choose the company' });
      return;
    }
    const cents = picked ? picked.total_cents : parseMoney(amount, currency);
    const body = { company: co.id, amount_cents: cents, reference, note, ...(picked ? { invoice: picked.id } : {}) };
    const parsed = (co.billing === 'postpaid' ? CompanyPaymentBody : CompanyRechargeBody).safeParse(body);
    const errs = parsed.success ? {} : zodErrors(parsed.error);
    if (cents == null || cents <= 0) errs.amount_cents = 'Enter an amount above zero, such as 100.00';
    if (Object.keys(errs).length) {
      setErrors(errs);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onDone(await api.post<TopUpResult>(`wallet/${co.billing}-recharge-by-company/`, body));
    } catch (err) {
      setErrors(formErrors(err));
    } finally {
      setBusy(false);
    }
  };

  const title = !co ? 'Top up a wallet' : co.billing === 'prepaid' ? `Recharge ${co.label}` : `Payment from ${co.label}`;
  return (
    <Dialog
      title={title}
      narrow
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="topup-form" busy={busy}>
            {co?.billing === 'postpaid' ? 'Record payment' : 'Recharge'}
          </Button>
        </>
      }
    >
      <form id="topup-form" class="stack" onSubmit={(e) => void submit(e)} noValidate>
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
            options={options}
            placeholder="Choose a company"
            error={errors.company}
            required
          />
        )}
        {co && (
          <p class="note" style={{ margin: 0 }}>
            {co.billing === 'prepaid'
              ? 'Prepaid: the amount is added to the balance that parcels are charged from.'
              : 'Postpaid: a payment received on account. Choose a statement to settle it in full.'}
          </p>
        )}
        {co?.billing === 'postpaid' && openInvoices.length > 0 && (
          <SelectField
            label="Settles statement"
            name="invoice"
            value={invoice}
            onValue={setInvoice}
            placeholder="None (payment on account)"
            error={errors.invoice}
            options={openInvoices.map((i) => ({ value: String(i.id), label: `${i.number} · ${money(i.total_cents, i.currency)}` }))}
          />
        )}
        {picked ? (
          <p>
            <strong>Amount:</strong> {money(picked.total_cents, picked.currency)} (the statement's total)
          </p>
        ) : (
          <MoneyField
            label="Amount"
            name="amount"
            currency={currency}
            value={amount}
            onValue={setAmount}
            error={errors.amount_cents}
            required
          />
        )}
        <TextField
          label="Reference"
          value={reference}
          onValue={setReference}
          error={errors.reference}
          hint="Bank transfer or receipt number"
        />
        <TextField label="Note" value={note} onValue={setNote} error={errors.note} />
      </form>
    </Dialog>
  );
}
