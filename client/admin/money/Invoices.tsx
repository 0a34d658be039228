import { useEffect, useState } from 'preact/hooks';
import { INVOICE_KINDS, INVOICE_STATUSES } from '../../../shared/money';
import { GenerateInvoiceBody } from '../../../shared/schemas/money';
import { api, errorMessage, formErrors } from '../../api/client';
import { listQuery } from '../../api/paging';
import { useList } from '../../api/useList';
import { can } from '../../app/access';
import { navigate } from '../../app/router';
import type { Session } from '../../app/session';
import { zodErrors } from '../../app/zodErrors';
import { Button } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { openBlobInTab } from '../../ui/download';
import { ExportButtons } from '../reports/ExportButton';
import { loadRefs } from '../resource/refOptions';
import { isoDay, money } from './format';
import { day } from '../../ui/when';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';
import { useRefData } from './refs';
import { INVOICE_KIND_LABELS, type InvoiceDetailsT, type InvoiceT } from './types';
import './money.css';

/** Invoices, receipts and adjustment notes: filters, CSV, PDF, and (staff) statements for a period. */
export default function Invoices({ session, query }: { session: Session; query: URLSearchParams }) {
  const isCompany = session.user.role === 'company';
  const canManage = can(session.user.role, 'invoice.manage');
  const initial: Record<string, string> = {};
  for (const k of ['company', 'status', 'kind']) {
    const v = query.get(k);
    if (v) initial[k] = v;
  }
  const list = useList<InvoiceT>('invoice/', { pageSize: 25, filters: initial });
  const companies = useRefData('company', !isCompany);
  const [generating, setGenerating] = useState(false);
  const f = list.params.filters ?? {};
  const { data } = list;
  const { page: _p, page_size: _s, ...csvQuery } = listQuery(list.params);

  const openPdf = (i: InvoiceT) => {
    openBlobInTab(`invoice/${i.id}/pdf/`).catch((err: unknown) => toast(errorMessage(err), 'bad'));
  };
  const columns: Column<InvoiceT>[] = [
    {
      key: 'number',
      label: 'Number',
      render: (i) => (
        <a class="mono" href={`#/money/invoices/${i.id}`}>
          {i.number}
        </a>
      ),
    },
    { key: 'kind', label: 'Kind', render: (i) => INVOICE_KIND_LABELS[i.kind] },
    ...(isCompany ? [] : [{ key: 'company_name', label: 'Company' } as Column<InvoiceT>]),
    {
      key: 'period',
      label: 'Period',
      render: (i) => (i.period_from ? `${day(i.period_from)} – ${day(i.period_to)}` : <span class="muted">—</span>),
    },
    { key: 'issued_at', label: 'Issued', render: (i) => day(i.issued_at) },
    { key: 'status', label: 'Status', render: (i) => <InvoiceStatusBadge status={i.status} /> },
    { key: 'total_cents', label: 'Total', numeric: true, render: (i) => <span class="money">{money(i.total_cents, i.currency)}</span> },
  ];

  return (
    <section aria-labelledby="inv-title">
      <div class="page-head">
        <h1 id="inv-title">Invoices</h1>
        <span class="spacer" />
        <ExportButtons
          targets={[
            {
              label: 'Download CSV',
              path: isCompany ? 'invoice/login-company-csv-download/' : 'invoice/csv-download/',
              query: csvQuery,
              fallbackName: 'invoices.csv',
            },
          ]}
        />
        {canManage && (
          <Button variant="primary" onClick={() => setGenerating(true)}>
            Generate statement
          </Button>
        )}
      </div>
      <div class="filters-bar">
        <TextField
          label="Number"
          type="search"
          value={list.params.search ?? ''}
          onValue={(v) => list.setParams({ search: v })}
          placeholder="INV-2026-…"
        />
        {!isCompany && (
          <SelectField
            label="Company"
            name="filter-company"
            value={f.company ?? ''}
            onValue={(v) => list.setFilter('company', v)}
            options={companies.options}
            placeholder="All companies"
          />
        )}
        <SelectField
          label="Kind"
          name="filter-kind"
          value={f.kind ?? ''}
          onValue={(v) => list.setFilter('kind', v)}
          placeholder="All"
          options={INVOICE_KINDS.map((k) => ({ value: k, label: INVOICE_KIND_LABELS[k] }))}
        />
        <SelectField
          label="Status"
          name="filter-status"
          value={f.status ?? ''}
          onValue={(v) => list.setFilter('status', v)}
          placeholder="All"
          options={INVOICE_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))}
        />
        <TextField label="Issued from" type="date" value={f.from ?? ''} onValue={(v) => list.setFilter('from', v)} />
        <TextField label="Issued to" type="date" value={f.to ?? ''} onValue={(v) => list.setFilter('to', v)} />
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title={Object.values(f).some(Boolean) || list.params.search ? 'No invoice matches these filters' : 'No invoices yet'} />
        </div>
      ) : (
        <div aria-busy={list.loading ? 'true' : undefined}>
          <DataTable<InvoiceT>
            columns={columns}
            rows={data.results}
            rowKey={(i) => i.id}
            caption="Invoices"
            onRowClick={(i) => navigate(`/money/invoices/${i.id}`)}
            actions={(i) => (
              <Button size="small" aria-label={`Open PDF of ${i.number}`} onClick={() => openPdf(i)}>
                PDF
              </Button>
            )}
          />
          <Pager
            page={list.params.page}
            pageSize={list.params.pageSize}
            count={data.count}
            onPage={(p) => list.setParams({ page: p })}
            onPageSize={(n) => list.setParams({ pageSize: n })}
          />
        </div>
      )}
      {generating && (
        <GenerateDialog
          initialCompany={f.company ?? ''}
          onClose={() => setGenerating(false)}
          onDone={(inv) => {
            toast(`${inv.number} issued`, 'ok');
            navigate(`/money/invoices/${inv.id}`);
          }}
        />
      )}
    </section>
  );
}

function GenerateDialog({
  initialCompany,
  onClose,
  onDone,
}: {
  initialCompany: string;
  onClose: () => void;
  onDone: (inv: InvoiceDetailsT) => void;
}) {
  const now = new Date();
  const [companies, setCompanies] = useState<{ value: string; label: string }[]>([]);
  const [company, setCompany] = useState(initialCompany);
  const [from, setFrom] = useState(isoDay(new Date(now.getFullYear(), now.getMonth(), 1)));
  const [to, setTo] = useState(isoDay(now));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    // Statements are for postpaid companies; prepaid ones are charged as they go and get receipts.
    loadRefs('company').then(
      (rows) =>
        setCompanies(
          rows
            .filter((r) => r.billing_type === 'postpaid')
            .map((r) => ({ value: String(r.id), label: `${String(r.name)} (${String(r.code)})` })),
        ),
      () => undefined,
    );
  }, []);
  const submit = async (e: Event) => {
    e.preventDefault();
    const body = { company: Number(company) || undefined, period_from: from, period_to: to };
    const parsed = GenerateInvoiceBody.safeParse(body);
    if (!parsed.success) {
      setErrors(zodErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onDone(await api.post<InvoiceDetailsT>('invoice/generate-invoice/', body));
    } catch (err) {
      setErrors(formErrors(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="Generate statement"
      narrow
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="generate-form" busy={busy}>
            Generate
          </Button>
        </>
      }
    >
      <form id="generate-form" class="stack" onSubmit={(e) => void submit(e)} noValidate>
        {errors._ && (
          <div class="form-error" role="alert">
            {errors._}
          </div>
        )}
        <p class="muted" style={{ margin: 0 }}>
          Lists every charge and refund of the period not yet on a statement. Once issued, a statement never changes.
        </p>
        <SelectField
          label="Company"
          name="company"
          value={company}
          onValue={setCompany}
          options={companies}
          placeholder="Choose a postpaid company"
          error={errors.company}
          required
          hint={companies.length === 0 ? 'No postpaid company yet' : undefined}
        />
        <div class="grid-2">
          <TextField label="From" type="date" value={from} onValue={setFrom} error={errors.period_from} required />
          <TextField label="To" type="date" value={to} onValue={setTo} error={errors.period_to} required />
        </div>
      </form>
    </Dialog>
  );
}
