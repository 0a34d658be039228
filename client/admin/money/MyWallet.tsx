import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client';
import type { Session } from '../../app/session';
import { Badge } from '../../ui/Badge';
import { LinkButton } from '../../ui/Button';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { BalanceCards } from './BalanceCards';
import { money } from './format';
import { TxnTable } from './TxnTable';
import type { WalletDetailsT } from './types';
import './money.css';

/** The logged-in company's wallet: balance, totals, open invoices and its own ledger. */
export default function MyWallet({ session }: { session: Session }) {
  const [data, setData] = useState<WalletDetailsT | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    api.get<WalletDetailsT>('wallet/login-company-wallet-details/').then((d) => {
      setData(d);
      setError(null);
    }, setError);
  }, [tick]);
  if (session.user.company == null)
    return (
      <div class="card">
        <Empty title="This login is not linked to a company" />
      </div>
    );
  if (error) return <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />;
  if (!data) return <Loading />;
  const w = data.wallet;
  return (
    <section aria-labelledby="my-wallet-title">
      <div class="page-head">
        <h1 id="my-wallet-title">Wallet</h1>
        <Badge tone={w.billing_type === 'prepaid' ? 'info' : 'muted'}>{w.billing_type === 'prepaid' ? 'Prepaid' : 'Postpaid'}</Badge>
        <span class="muted">{w.company_name}</span>
        <span class="spacer" />
        <LinkButton href="#/money/invoices">Invoices</LinkButton>
      </div>
      <BalanceCards
        wallet={w}
        extra={
          data.outstanding_invoices > 0
            ? [{ label: `${data.outstanding_invoices} unpaid invoice(s)`, cents: data.outstanding_cents, tone: 'warn' }]
            : []
        }
      />
      {w.billing_type === 'prepaid' && w.balance_cents <= 0 && (
        <p class="note">
          Your balance is empty: new parcels cannot be charged until the wallet is recharged. Contact the courier to top up.
        </p>
      )}
      <dl class="totals card" aria-label="Totals since the wallet opened">
        <div>
          <dt>Money in</dt>
          <dd class="money">{money(data.totals.credited_cents, w.currency)}</dd>
        </div>
        <div>
          <dt>Money out</dt>
          <dd class="money">{money(data.totals.debited_cents, w.currency)}</dd>
        </div>
        <div>
          <dt>Delivery charges</dt>
          <dd class="money">{money(data.totals.charges_cents, w.currency)}</dd>
        </div>
        <div>
          <dt>Refunds</dt>
          <dd class="money">{money(data.totals.refunds_cents, w.currency)}</dd>
        </div>
        <div>
          <dt>Transactions</dt>
          <dd>{data.totals.transactions}</dd>
        </div>
      </dl>
      <h2>Transactions</h2>
      <TxnTable path="wallet/login-company-transaction/" />
    </section>
  );
}
