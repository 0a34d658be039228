import { useState } from 'preact/hooks';
import { useList } from '../../api/useList';
import { can } from '../../app/access';
import type { Session } from '../../app/session';
import { Button } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { SelectField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { AdjustmentDialog } from './AdjustmentDialog';
import { signedMoney } from './format';
import { shortDateTime } from '../../ui/when';
import { useRefData } from './refs';
import type { AdjustmentT } from './types';
import './money.css';

/** Wallet adjustments with their notes, newest first; staff create them, a company sees its own. */
export default function Adjustments({ session }: { session: Session }) {
  const isCompany = session.user.role === 'company';
  const canManage = can(session.user.role, 'wallet.manage');
  const list = useList<AdjustmentT>('wallet-adjustment/', { pageSize: 25 });
  const companies = useRefData('company', !isCompany);
  const [creating, setCreating] = useState(false);
  const f = list.params.filters ?? {};
  const { data } = list;
  const columns: Column<AdjustmentT>[] = [
    { key: 'when', label: 'When', render: (a) => <span class="nowrap">{shortDateTime(a.transaction.created_at)}</span> },
    ...(isCompany ? [] : [{ key: 'company', label: 'Company', render: (a: AdjustmentT) => a.note.company_name }]),
    {
      key: 'note',
      label: 'Note',
      render: (a) => (
        <a href={`#/money/invoices/${a.note.id}`} class="mono">
          {a.note.number}
        </a>
      ),
    },
    { key: 'reason', label: 'Reason', render: (a) => a.transaction.reason },
    {
      key: 'amount',
      label: 'Amount',
      numeric: true,
      render: (a) => (
        <span class={`money ${a.transaction.amount_cents > 0 ? 'credit' : 'debit'}`}>
          {signedMoney(a.transaction.amount_cents, a.transaction.currency)}
        </span>
      ),
    },
  ];
  return (
    <section aria-labelledby="adj-title">
      <div class="page-head">
        <h1 id="adj-title">Wallet adjustments</h1>
        <span class="spacer" />
        {canManage && (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New adjustment
          </Button>
        )}
      </div>
      {!isCompany && (
        <div class="filters-bar">
          <SelectField
            label="Company"
            name="filter-company"
            value={f.company ?? ''}
            onValue={(v) => list.setFilter('company', v)}
            options={companies.options}
            placeholder="All companies"
          />
        </div>
      )}
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="No adjustments yet" />
        </div>
      ) : (
        <>
          <DataTable<AdjustmentT> columns={columns} rows={data.results} rowKey={(a) => a.note.id} caption="Adjustments" />
          <Pager
            page={list.params.page}
            pageSize={list.params.pageSize}
            count={data.count}
            onPage={(p) => list.setParams({ page: p })}
            onPageSize={(n) => list.setParams({ pageSize: n })}
          />
        </>
      )}
      {creating && (
        <AdjustmentDialog
          onClose={() => setCreating(false)}
          onDone={(m) => {
            toast(m, 'ok');
            setCreating(false);
            list.reload();
          }}
        />
      )}
    </section>
  );
}
