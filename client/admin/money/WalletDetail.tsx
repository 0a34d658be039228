import { useEffect, useState } from 'preact/hooks';
import { api, errorMessage, fieldErrors } from '../../api/client';
import { can } from '../../app/access';
import type { Session } from '../../app/session';
import { Badge } from '../../ui/Badge';
import { Button, LinkButton } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { AdjustmentDialog } from './AdjustmentDialog';
import { BalanceCards } from './BalanceCards';
import { majorText, parseMoney } from './format';
import { MoneyField } from './MoneyField';
import { TopUpDialog } from './TopUpDialog';
import { TxnTable } from './TxnTable';
import type { WalletT } from './types';
import './money.css';

/** One company's wallet for staff: balance, top-up, adjustment, credit limit, and its ledger. */
export default function WalletDetail({ session, id }: { session: Session; id: number }) {
  const canManage = can(session.user.role, 'wallet.manage');
  const [wallet, setWallet] = useState<WalletT | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const [dialog, setDialog] = useState<'topup' | 'adjust' | 'limit' | null>(null);
  useEffect(() => {
    api.get<WalletT>(`wallet/${id}/`).then((w) => {
      setWallet(w);
      setError(null);
    }, setError);
  }, [id, tick]);
  if (error) return <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />;
  if (!wallet) return <Loading />;
  const changed = (message: string) => {
    toast(message, 'ok');
    setDialog(null);
    setTick((n) => n + 1);
  };

  return (
    <section aria-labelledby="wallet-title">
      <p style={{ margin: '0 0 0.5rem' }}>
        <a href="#/money/wallets">← Wallets</a>
      </p>
      <div class="page-head">
        <h1 id="wallet-title">{wallet.company_name}</h1>
        <Badge tone={wallet.billing_type === 'prepaid' ? 'info' : 'muted'}>
          {wallet.billing_type === 'prepaid' ? 'Prepaid' : 'Postpaid'}
        </Badge>
        <Badge>{wallet.currency}</Badge>
        <span class="spacer" />
        <LinkButton href={`#/money/invoices?company=${wallet.company}`}>Invoices</LinkButton>
        {canManage && wallet.billing_type === 'postpaid' && <Button onClick={() => setDialog('limit')}>Credit limit</Button>}
        {canManage && <Button onClick={() => setDialog('adjust')}>Adjust</Button>}
        {canManage && (
          <Button variant="primary" onClick={() => setDialog('topup')}>
            {wallet.billing_type === 'prepaid' ? 'Recharge' : 'Record payment'}
          </Button>
        )}
      </div>
      <BalanceCards wallet={wallet} />
      <h2>Transactions</h2>
      <TxnTable key={tick} path={`wallet/${wallet.id}/transaction/`} />
      {dialog === 'topup' && <TopUpDialog companyId={wallet.company} onClose={() => setDialog(null)} onDone={(r) => changed(r.message)} />}
      {dialog === 'adjust' && (
        <AdjustmentDialog
          companyId={wallet.company}
          currency={wallet.currency}
          onClose={() => setDialog(null)}
          onDone={(m) => changed(m)}
        />
      )}
      {dialog === 'limit' && <LimitDialog wallet={wallet} onClose={() => setDialog(null)} onDone={() => changed('Credit limit saved')} />}
    </section>
  );
}

function LimitDialog({ wallet, onClose, onDone }: { wallet: WalletT; onClose: () => void; onDone: () => void }) {
  const [value, setValue] = useState(majorText(wallet.credit_limit_cents, wallet.currency));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const save = async (e: Event) => {
    e.preventDefault();
    const cents = value.trim() === '' ? null : parseMoney(value, wallet.currency);
    if (value.trim() !== '' && cents == null) {
      setError('Enter an amount such as 5000.00, or leave empty for no limit');
      return;
    }
    setBusy(true);
    try {
      await api.patch(`wallet/${wallet.id}/`, { credit_limit_cents: cents });
      onDone();
    } catch (err) {
      setError(fieldErrors(err).credit_limit_cents ?? errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="Credit limit"
      narrow
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="limit-form" busy={busy}>
            Save
          </Button>
        </>
      }
    >
      <form id="limit-form" onSubmit={(e) => void save(e)} noValidate>
        <MoneyField
          label="Credit limit"
          currency={wallet.currency}
          value={value}
          onValue={setValue}
          error={error || undefined}
          hint="How far below zero the balance may go. Empty: no limit."
        />
      </form>
    </Dialog>
  );
}
