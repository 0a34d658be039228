import { formatMinor } from '../../shared/money';
import { OnlineState } from './OnlineState';
import { useOnline } from './useOnline';

interface Row {
  currency: string | null;
  delivered_count: number;
  unrated_count: number;
  amount_cents: number;
}
interface Answer {
  from: string;
  to: string;
  totals: Row[];
  days: (Row & { date: string })[];
}

const money = (r: Row) => (r.currency ? formatMinor(r.amount_cents, r.currency) : 'No rate yet');

/** This month's earnings as the office computes them (rates live on the server). */
export default function Earnings() {
  const res = useOnline<Answer>('dashboard/driver-earning/');
  return (
    <div class="drv-screen" data-testid="earnings">
      <h1>Earnings</h1>
      <OnlineState {...res}>
        {(a) => (
          <>
            <p class="muted">
              {a.from} to {a.to}
            </p>
            <div class="counts">
              {a.totals.length === 0 ? (
                <div class="count">
                  <b>0</b>
                  <span>Delivered</span>
                </div>
              ) : (
                a.totals.map((t) => (
                  <div class="count ok" key={t.currency ?? 'none'}>
                    <b>{money(t)}</b>
                    <span>
                      {t.delivered_count} delivered{t.unrated_count ? `, ${t.unrated_count} without a rate` : ''}
                    </span>
                  </div>
                ))
              )}
            </div>
            <ul class="stops">
              {[...a.days].reverse().map((d) => (
                <li key={`${d.date}-${d.currency ?? ''}`}>
                  <div class="body pad">
                    <span class="line1">{d.date}</span>
                    <span class="line2">
                      {d.delivered_count} delivered · {money(d)}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
      </OnlineState>
    </div>
  );
}
