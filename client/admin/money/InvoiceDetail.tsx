import { useEffect, useState } from 'preact/hooks';
import { api, errorMessage, formErrors } from '../../api/client';
import { can } from '../../app/access';
import type { Session } from '../../app/session';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { DataTable, type Column } from '../../ui/DataTable';
import { Dialog } from '../../ui/Dialog';
import { Field, TextField } from '../../ui/Field';
import { ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { fetchWithProgress, openBlobInTab, saveBlob } from '../../ui/download';
import { AdjustmentDialog } from './AdjustmentDialog';
import { money } from './format';
import { dateTime, day } from '../../ui/when';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';
import { isAdmin } from '../../../shared/roles';
import { ProfileNotice } from '../settings/ProfileNotice';
import { INVOICE_KIND_LABELS, type InvoiceDetailsT } from './types';
import './money.css';

type Line = InvoiceDetailsT['lines'][number];

/** One invoice: its lines and total, PDF, and (staff) issued -> paid or void, and a correcting adjustment. */
export default function InvoiceDetail({ session, id }: { session: Session; id: number }) {
  const canManage = can(session.user.role, 'invoice.manage');
  const canAdjust = can(session.user.role, 'wallet.manage');
  const [inv, setInv] = useState<InvoiceDetailsT | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const [dialog, setDialog] = useState<'paid' | 'void' | 'adjust' | null>(null);
  const [downloading, setDownloading] = useState(false);
  useEffect(() => {
    api.get<InvoiceDetailsT>(`invoice/${id}/`).then((d) => {
      setInv(d);
      setError(null);
    }, setError);
  }, [id, tick]);
  if (error) return <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />;
  if (!inv) return <Loading />;

  const download = async () => {
    setDownloading(true);
    try {
      const file = await fetchWithProgress(`invoice/${inv.id}/pdf/`, {}, `${inv.number}.pdf`, () => undefined);
      saveBlob(file.blob, file.name);
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setDownloading(false);
    }
  };
  const open = () => {
    openBlobInTab(`invoice/${inv.id}/pdf/`).catch((err: unknown) => toast(errorMessage(err), 'bad'));
  };
  const done = (message: string) => {
    toast(message, 'ok');
    setDialog(null);
    setTick((n) => n + 1);
  };

  const columns: Column<Line>[] = [
    { key: 'description', label: 'Description' },
    {
      key: 'hawb',
      label: 'Tracking no',
      render: (l) =>
        l.package != null ? (
          <a class="mono" href={`#/packages/${l.package}`}>
            {l.hawb ?? `#${l.package}`}
          </a>
        ) : (
          <span class="muted">—</span>
        ),
    },
    {
      key: 'amount_cents',
      label: 'Amount',
      numeric: true,
      render: (l) => <span class="money">{money(l.amount_cents, inv.currency)}</span>,
    },
  ];

  return (
    <section aria-labelledby="invoice-title">
      <p style={{ margin: '0 0 0.5rem' }}>
        <a href="#/money/invoices">← Invoices</a>
      </p>
      <div class="page-head">
        <h1 id="invoice-title" class="mono">
          {inv.number}
        </h1>
        <InvoiceStatusBadge status={inv.status} />
        <Badge tone="info">{INVOICE_KIND_LABELS[inv.kind]}</Badge>
        <span class="spacer" />
        <Button onClick={open}>Open PDF</Button>
        <Button onClick={() => void download()} busy={downloading}>
          Download PDF
        </Button>
        {canManage && inv.status === 'issued' && inv.kind === 'statement' && (
          <Button variant="primary" onClick={() => setDialog('paid')}>
            Mark paid
          </Button>
        )}
        {canManage && inv.status === 'issued' && (
          <Button variant="danger" onClick={() => setDialog('void')}>
            Void
          </Button>
        )}
        {canAdjust && inv.status === 'void' && <Button onClick={() => setDialog('adjust')}>Correct with adjustment</Button>}
      </div>
      {isAdmin(session.user.role) && <ProfileNotice />}
      <div class="card invoice-head" style={{ marginBottom: '1rem' }}>
        <dl class="dl">
          <dt>Company</dt>
          <dd>{inv.company_name}</dd>
          {inv.period_from && (
            <>
              <dt>Period</dt>
              <dd>
                {day(inv.period_from)} – {day(inv.period_to)}
              </dd>
            </>
          )}
          <dt>Issued</dt>
          <dd>{dateTime(inv.issued_at)}</dd>
          {inv.paid_at && (
            <>
              <dt>Paid</dt>
              <dd>{dateTime(inv.paid_at)}</dd>
            </>
          )}
          {inv.voided_at && (
            <>
              <dt>Voided</dt>
              <dd>
                {dateTime(inv.voided_at)}
                {inv.void_reason && ` · ${inv.void_reason}`}
              </dd>
            </>
          )}
          {inv.corrects_invoice != null && (
            <>
              <dt>Corrects</dt>
              <dd>
                <a href={`#/money/invoices/${inv.corrects_invoice}`}>invoice #{inv.corrects_invoice}</a>
              </dd>
            </>
          )}
        </dl>
        <div class="total">
          <div class="muted">Total</div>
          <div class="value" data-testid="invoice-total">
            {money(inv.total_cents, inv.currency)}
          </div>
        </div>
      </div>
      <h2>Lines ({inv.lines.length})</h2>
      <DataTable<Line> columns={columns} rows={inv.lines} rowKey={(l) => l.id} caption={`Lines of ${inv.number}`} />
      {dialog === 'paid' && (
        <StatusDialog invoice={inv} status="paid" onClose={() => setDialog(null)} onDone={() => done(`${inv.number} marked paid`)} />
      )}
      {dialog === 'void' && (
        <StatusDialog invoice={inv} status="void" onClose={() => setDialog(null)} onDone={() => done(`${inv.number} voided`)} />
      )}
      {dialog === 'adjust' && (
        <AdjustmentDialog
          companyId={inv.company}
          currency={inv.currency}
          invoiceId={inv.id}
          onClose={() => setDialog(null)}
          onDone={done}
        />
      )}
    </section>
  );
}

function StatusDialog({
  invoice,
  status,
  onClose,
  onDone,
}: {
  invoice: InvoiceDetailsT;
  status: 'paid' | 'void';
  onClose: () => void;
  onDone: () => void;
}) {
  const [reference, setReference] = useState('');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (status === 'void' && !text.trim()) {
      setErrors({ reason: 'Say why the invoice is void' });
      return;
    }
    setBusy(true);
    try {
      await api.post(
        `invoice/${invoice.id}/status-change/`,
        status === 'paid' ? { status, reference, note: text } : { status, reason: text },
      );
      onDone();
    } catch (err) {
      setErrors(formErrors(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={status === 'paid' ? `Mark ${invoice.number} paid` : `Void ${invoice.number}`}
      narrow
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant={status === 'void' ? 'danger' : 'primary'} type="submit" form="status-form" busy={busy}>
            {status === 'paid' ? 'Mark paid' : 'Void invoice'}
          </Button>
        </>
      }
    >
      <form id="status-form" class="stack" onSubmit={(e) => void submit(e)} noValidate>
        {errors._ && (
          <div class="form-error" role="alert">
            {errors._}
          </div>
        )}
        <p style={{ margin: 0 }}>
          {status === 'paid'
            ? `Records a payment of ${money(invoice.total_cents, invoice.currency)} in the company's wallet.`
            : 'A void invoice moves no money. Correct the wallet afterwards with an adjustment if needed.'}
        </p>
        {status === 'paid' && (
          <TextField
            label="Reference"
            value={reference}
            onValue={setReference}
            error={errors.reference}
            hint="Bank transfer or receipt number"
          />
        )}
        <Field label={status === 'paid' ? 'Note' : 'Reason'} error={errors.reason ?? errors.note} required={status === 'void'}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              class="input"
              value={text}
              aria-invalid={invalid ? 'true' : undefined}
              aria-describedby={describedBy}
              onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
            />
          )}
        </Field>
      </form>
    </Dialog>
  );
}
