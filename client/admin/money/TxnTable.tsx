import { TXN_KINDS } from '../../../shared/money';
import { useList } from '../../api/useList';
import { Badge, type Tone } from '../../ui/Badge';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { SelectField, TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { money, signedMoney } from './format';
import { shortDateTime } from '../../ui/when';
import { TXN_LABELS, type TxnT } from './types';

const KIND_TONE: Record<TxnT['kind'], Tone> = {
  recharge: 'ok',
  payment: 'ok',
  charge: 'muted',
  refund: 'info',
  adjustment: 'warn',
  reprice: 'warn',
  cod_collected: 'info',
  cod_payout: 'ok',
};

const COLUMNS: Column<TxnT>[] = [
  { key: 'created_at', label: 'When', render: (t) => <span class="nowrap">{shortDateTime(t.created_at)}</span> },
  { key: 'kind', label: 'Kind', render: (t) => <Badge tone={KIND_TONE[t.kind]}>{TXN_LABELS[t.kind]}</Badge> },
  {
    key: 'reason',
    label: 'Details',
    render: (t) => (
      <>
        {t.reason || '—'}
        {t.reference && (
          <div class="muted mono" style={{ fontSize: '0.85rem' }}>
            {t.reference}
          </div>
        )}
      </>
    ),
  },
  {
    key: 'amount_cents',
    label: 'Amount',
    numeric: true,
    render: (t) => <span class={`money ${t.amount_cents > 0 ? 'credit' : 'debit'}`}>{signedMoney(t.amount_cents, t.currency)}</span>,
  },
  {
    key: 'balance_after_cents',
    label: 'Balance after',
    numeric: true,
    render: (t) => <span class="money">{money(t.balance_after_cents, t.currency)}</span>,
  },
  {
    key: 'invoice',
    label: 'Document',
    render: (t) =>
      t.invoice != null ? (
        <a href={`#/money/invoices/${t.invoice}`}>Open</a>
      ) : t.billing === 'postpaid' && t.kind === 'charge' ? (
        <span class="muted">Next statement</span>
      ) : (
        <span class="muted">—</span>
      ),
  },
];

/** A wallet's ledger, newest first, paged by the server, filtered by kind and period. */
export function TxnTable({ path }: { path: string }) {
  const list = useList<TxnT>(path, { pageSize: 25 });
  const f = list.params.filters ?? {};
  const { data } = list;
  return (
    <div>
      <div class="filters-bar">
        <SelectField
          label="Kind"
          name="txn-kind"
          value={f.kind ?? ''}
          onValue={(v) => list.setFilter('kind', v)}
          placeholder="All"
          options={TXN_KINDS.map((k) => ({ value: k, label: TXN_LABELS[k] }))}
        />
        <TextField label="From" type="date" value={f.from ?? ''} onValue={(v) => list.setFilter('from', v)} />
        <TextField label="To" type="date" value={f.to ?? ''} onValue={(v) => list.setFilter('to', v)} />
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title={Object.values(f).some(Boolean) ? 'No transaction matches these filters' : 'No transactions yet'} />
        </div>
      ) : (
        <div aria-busy={list.loading ? 'true' : undefined} style={{ opacity: list.loading ? 0.6 : 1 }}>
          <DataTable<TxnT> columns={COLUMNS} rows={data.results} rowKey={(t) => t.id} caption="Transactions" />
          <Pager
            page={list.params.page}
            pageSize={list.params.pageSize}
            count={data.count}
            onPage={(p) => list.setParams({ page: p })}
            onPageSize={(n) => list.setParams({ pageSize: n })}
          />
        </div>
      )}
    </div>
  );
}
