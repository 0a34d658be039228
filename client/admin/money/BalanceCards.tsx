import { money } from './format';
import type { WalletT } from './types';

/** Balance, available amount and credit limit in big numbers: what people open a wallet to see. */
export function BalanceCards({
  wallet,
  extra,
}: {
  wallet: WalletT;
  extra?: { label: string; cents: number; tone?: 'warn' | 'bad' | 'info' }[];
}) {
  const cards = [
    { label: 'Balance', cents: wallet.balance_cents, tone: wallet.balance_cents < 0 ? 'bad' : 'ok', id: 'wallet-balance' },
    { label: 'Available to spend', cents: wallet.available_cents, tone: 'info', id: 'wallet-available' },
    ...(wallet.billing_type === 'postpaid'
      ? [{ label: 'Credit limit', cents: wallet.credit_limit_cents, tone: 'muted', id: 'wallet-limit' }]
      : []),
    ...(extra ?? []).map((e) => ({ ...e, tone: e.tone ?? 'warn', id: `wallet-${e.label.toLowerCase().replace(/\W+/g, '-')}` })),
  ];
  return (
    <div class="balance-cards">
      {cards.map((c) => (
        <div key={c.label} class={`counter ${c.tone}`}>
          <div class={`value money${c.cents != null && c.cents < 0 ? ' neg' : ''}`} data-testid={c.id}>
            {c.cents == null ? 'Unlimited' : money(c.cents, wallet.currency)}
          </div>
          <div class="label">{c.label}</div>
        </div>
      ))}
    </div>
  );
}
