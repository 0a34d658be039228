import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { CodReport as Report } from '../../../shared/schemas/cod';
import { api } from '../../api/client';
import { TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { money } from '../money/format';
import { useDrivers } from './useDrivers';

type Answer = z.infer<typeof Report>;
type Row = Answer['rows'][number];

const AMOUNTS: { key: keyof Omit<Row, 'day' | 'driver' | 'currency'>; label: string }[] = [
  { key: 'collected_cash_cents', label: 'Cash collected' },
  { key: 'collected_card_cents', label: 'Card collected' },
  { key: 'waived_cents', label: 'Waived' },
  { key: 'handed_over_cents', label: 'Handed over' },
  { key: 'difference_cents', label: 'Difference' },
  { key: 'owed_cents', label: 'Owed to shippers' },
  { key: 'paid_cents', label: 'Paid out' },
];

/**
 * Cash on delivery per business-local day and driver (issue 34): collected (cash, card), waived,
 * handed over and its difference; per day (no driver) what became owed to shippers and was paid out.
 */
export default function CodReport() {
  const drivers = useDrivers();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [data, setData] = useState<Answer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    api.get<Answer>('cod/report/', { from: from || undefined, to: to || undefined }).then(
      (d) => live && setData(d),
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [from, to, tick]);

  return (
    <section class="stack" aria-labelledby="codrep-title">
      <div class="page-head">
        <h1 id="codrep-title">Cash on delivery</h1>
      </div>
      <div class="card form-grid">
        <TextField
          name="from"
          label="From"
          type="date"
          value={from}
          onValue={setFrom}
          hint={data ? `Showing from ${data.from}` : undefined}
        />
        <TextField name="to" label="To" type="date" value={to} onValue={setTo} hint={data ? `to ${data.to}` : undefined} />
      </div>
      {error ? (
        <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />
      ) : !data ? (
        <Loading />
      ) : data.rows.length === 0 ? (
        <div class="card">
          <Empty title="No cash on delivery in this period" />
        </div>
      ) : (
        <div class="card table-wrap">
          <table class="table" data-testid="cod-report">
            <thead>
              <tr>
                <th>Day</th>
                <th>Driver</th>
                {AMOUNTS.map((a) => (
                  <th key={a.key} class="num">
                    {a.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <tr key={`${r.day}-${r.driver ?? 'all'}-${r.currency}`} data-testid="cod-report-row">
                  <td>{r.day}</td>
                  <td>{r.driver == null ? <span class="muted">Shippers</span> : drivers.nameOf(r.driver)}</td>
                  {AMOUNTS.map((a) => (
                    <td key={a.key} class="num">
                      {r[a.key] ? money(r[a.key], r.currency) : ''}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
            <tfoot>
              {data.totals.map((t) => (
                <tr key={t.currency} data-testid="cod-report-total">
                  <th colSpan={2}>Total ({t.currency})</th>
                  {AMOUNTS.map((a) => (
                    <th key={a.key} class="num">
                      {money(t[a.key], t.currency)}
                    </th>
                  ))}
                </tr>
              ))}
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
