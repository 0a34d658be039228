import type { JSX } from 'preact';
import type { Permission } from '../../../shared/permissions';
import { can } from '../../app/access';
import { Lazy } from '../../app/Lazy';
import { match } from '../../app/router';
import type { Session } from '../../app/session';
import { Empty } from '../../ui/States';
import './business.css';

/** Every screen here is its own chunk: money, reports and integrations are opened by few users. */
const load = {
  rateCards: () => import('./RateCards'),
  calculator: () => import('./Calculator'),
  wallets: () => import('./Wallets'),
  walletDetail: () => import('./WalletDetail'),
  myWallet: () => import('./MyWallet'),
  invoices: () => import('./Invoices'),
  invoiceDetail: () => import('./InvoiceDetail'),
  adjustments: () => import('./Adjustments'),
  unpriced: () => import('./Unpriced'),
  reports: () => import('../reports/Reports'),
  integrations: () => import('../integrations/Integrations'),
};

function NotAllowed() {
  return (
    <div class="card">
      <Empty title="Not available for your role">Ask an administrator if you need this screen.</Empty>
    </div>
  );
}

/**
 * The routes of the money, reports and integrations screens (`#/money/...`, `#/reports`,
 * `#/integrations`); null when the path is none of them. Company logins get their own views of the
 * same data; the server scopes every answer again.
 */
export function businessRoute(path: string, query: URLSearchParams, session: Session): JSX.Element | null {
  if (!/^\/(money|reports|integrations)(\/|$)/.test(path)) return null;
  const role = session.user.role;
  const isCompany = role === 'company';
  const gate = (perm: Permission, el: () => JSX.Element) => (can(role, perm) ? el() : <NotAllowed />);
  const props = { session, query };

  if (path === '/money/rate-cards') return gate('rate.view', () => <Lazy load={load.rateCards} props={props} />);
  if (path === '/money/calculator') return gate('rate.view', () => <Lazy load={load.calculator} props={props} />);
  if (path === '/money/wallet' || (isCompany && path === '/money/wallets'))
    return gate('wallet.view', () => <Lazy load={load.myWallet} props={props} />);
  if (path === '/money/wallets') return gate('wallet.view', () => <Lazy load={load.wallets} props={props} />);
  const wallet = match('/money/wallets/:id', path);
  if (wallet && /^\d+$/.test(wallet.id ?? '')) {
    return gate('wallet.view', () => <Lazy key={wallet.id} load={load.walletDetail} props={{ ...props, id: Number(wallet.id) }} />);
  }
  if (path === '/money/invoices') return gate('invoice.view', () => <Lazy load={load.invoices} props={props} />);
  const inv = match('/money/invoices/:id', path);
  if (inv && /^\d+$/.test(inv.id ?? '')) {
    return gate('invoice.view', () => <Lazy key={inv.id} load={load.invoiceDetail} props={{ ...props, id: Number(inv.id) }} />);
  }
  if (path === '/money/unpriced') return gate('package.view', () => <Lazy load={load.unpriced} props={props} />);
  if (path === '/money/adjustments') return gate('wallet.view', () => <Lazy load={load.adjustments} props={props} />);
  const rep = path === '/reports' ? { tab: '' } : match('/reports/:tab', path);
  if (rep) return gate('report.view', () => <Lazy load={load.reports} props={{ ...props, tab: rep.tab ?? '' }} />);
  const integ = path === '/integrations' ? { tab: '' } : match('/integrations/:tab', path);
  if (integ) return gate('webhook.view', () => <Lazy load={load.integrations} props={{ ...props, tab: integ.tab ?? '' }} />);
  return (
    <div class="card">
      <Empty title="Page not found">
        <a href="#/">Go to the dashboard</a>
      </Empty>
    </div>
  );
}
