import { useState } from 'preact/hooks';
import { useList } from '../../api/useList';
import { can } from '../../app/access';
import { navigate } from '../../app/router';
import type { Session } from '../../app/session';
import { Badge } from '../../ui/Badge';
import { Button, LinkButton } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { SelectField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { money } from './format';
import { useRefData } from './refs';
import { TopUpDialog } from './TopUpDialog';
import type { WalletT } from './types';
import './money.css';

/** Every company's wallet (staff): balance, billing type, what may still be spent, and a top-up. */
export default function Wallets({ session }: { session: Session }) {
  const canManage = can(session.user.role, 'wallet.manage');
  const list = useList<WalletT>('wallet/', { pageSize: 50 });
  const companies = useRefData('company');
  const [topUp, setTopUp] = useState<number | 'any' | null>(null);
  const f = list.params.filters ?? {};
  const { data } = list;

  const columns: Column<WalletT>[] = [
    { key: 'company_name', label: 'Company', render: (w) => <a href={`#/money/wallets/${w.id}`}>{w.company_name}</a> },
    {
      key: 'billing_type',
      label: 'Billing',
      render: (w) => (
        <Badge tone={w.billing_type === 'prepaid' ? 'info' : 'muted'}>{w.billing_type === 'prepaid' ? 'Prepaid' : 'Postpaid'}</Badge>
      ),
    },
    {
      key: 'balance_cents',
      label: 'Balance',
      numeric: true,
      render: (w) => <span class={`money${w.balance_cents < 0 ? ' debit' : ''}`}>{money(w.balance_cents, w.currency)}</span>,
    },
    {
      key: 'credit_limit_cents',
      label: 'Credit limit',
      numeric: true,
      render: (w) =>
        w.billing_type === 'prepaid' ? (
          <span class="muted">—</span>
        ) : w.credit_limit_cents == null ? (
          'Unlimited'
        ) : (
          <span class="money">{money(w.credit_limit_cents, w.currency)}</span>
        ),
    },
    {
      key: 'available_cents',
      label: 'Available',
      numeric: true,
      render: (w) => (w.available_cents == null ? 'Unlimited' : <span class="money">{money(w.available_cents, w.currency)}</span>),
    },
  ];

  return (
    <section aria-labelledby="wallets-title">
      <div class="page-head">
        <h1 id="wallets-title">Wallets</h1>
        <span class="spacer" />
        <LinkButton href="#/money/adjustments">Adjustments</LinkButton>
        {canManage && (
          <Button variant="primary" onClick={() => setTopUp('any')}>
            Top up a wallet
          </Button>
        )}
      </div>
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
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="No wallets yet">A wallet opens with a company's first top-up or charged parcel.</Empty>
        </div>
      ) : (
        <>
          <DataTable<WalletT>
            columns={columns}
            rows={data.results}
            rowKey={(w) => w.id}
            caption="Wallets"
            onRowClick={(w) => navigate(`/money/wallets/${w.id}`)}
            actions={
              canManage
                ? (w) => (
                    <Button size="small" onClick={() => setTopUp(w.company)}>
                      {w.billing_type === 'prepaid' ? 'Recharge' : 'Payment'}
                    </Button>
                  )
                : undefined
            }
          />
          <Pager
            page={list.params.page}
            pageSize={list.params.pageSize}
            count={data.count}
            onPage={(p) => list.setParams({ page: p })}
            onPageSize={(n) => list.setParams({ pageSize: n })}
          />
        </>
      )}
      {topUp != null && (
        <TopUpDialog
          companyId={topUp === 'any' ? undefined : topUp}
          onClose={() => setTopUp(null)}
          onDone={(r) => {
            toast(r.message, 'ok');
            setTopUp(null);
            navigate(`/money/wallets/${r.wallet.id}`);
          }}
        />
      )}
    </section>
  );
}
