import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import { handoverOutcome } from '../../../shared/cod';
import type { DriverCash } from '../../../shared/schemas/cod';
import { api, errorMessage, fieldErrors } from '../../api/client';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { money, parseMoney } from '../money/format';
import { MoneyField } from '../money/MoneyField';
import { useDrivers } from './useDrivers';

type Cash = z.infer<typeof DriverCash>;

function Figure({
  label,
  cents,
  currency,
  tone,
  testid,
}: {
  label: string;
  cents: number;
  currency: string;
  tone?: string;
  testid?: string;
}) {
  return (
    <div class={`figure ${tone ?? ''}`} data-testid={testid}>
      <b>{money(cents, currency)}</b>
      <span class="muted">{label}</span>
    </div>
  );
}

/** "short by $2.00" / "over by $1.00" / "exact". */
export function differenceWords(difference: number, currency: string): string {
  if (difference === 0) return 'exact';
  return `${difference < 0 ? 'short' : 'over'} by ${money(Math.abs(difference), currency)}`;
}

/**
 * The depot's cash desk (issue 34): a driver's float for the day, the cash they collected, what they
 * should bring back, and the count. The difference is shown while counting; once recorded, a shortfall
 * is owed by the driver (a ledger entry with an audit line, server/services/cod/cash.ts).
 */
export default function CashHandover() {
  const drivers = useDrivers();
  const [driver, setDriver] = useState('');
  const [day, setDay] = useState('');
  const [cash, setCash] = useState<Cash | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const [floatText, setFloatText] = useState('');
  const [counted, setCounted] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setCash(null);
    setError(null);
    if (!driver) return;
    let live = true;
    api.get<Cash>('cod/driver-cash/', { driver, day: day || undefined }).then(
      (c) => live && setCash(c),
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [driver, day, tick]);

  const currency = cash?.currency ?? 'AUD';
  const expected = cash ? cash.cash_held_cents : 0;
  const countedCents = parseMoney(counted, currency);
  const outcome = countedCents != null && cash && !cash.handed_over ? handoverOutcome(expected, countedCents) : null;

  const send = async (path: string, body: Record<string, unknown>, done: string) => {
    setBusy(true);
    setErrors({});
    try {
      await api.post(path, { driver: Number(driver), ...(day ? { day } : {}), currency, ...body });
      toast(done, 'ok');
      setFloatText('');
      setCounted('');
      setNote('');
      setTick((n) => n + 1);
    } catch (err) {
      setErrors(fieldErrors(err));
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="stack" aria-labelledby="cash-title">
      <div class="page-head">
        <h1 id="cash-title">Cash hand-over</h1>
      </div>
      <div class="card form-grid">
        <SelectField
          name="driver"
          label="Driver"
          value={driver}
          onValue={setDriver}
          placeholder="Choose a driver"
          options={drivers.options}
        />
        <TextField name="day" label="Day" type="date" value={day} onValue={setDay} hint="Empty: today" />
      </div>
      {!driver ? (
        <div class="card">
          <Empty title="Choose a driver">Their float, the cash they collected and the count appear here.</Empty>
        </div>
      ) : error ? (
        <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />
      ) : !cash ? (
        <Loading />
      ) : (
        <>
          <div class="card stack" data-testid="driver-cash">
            <h2>
              {drivers.nameOf(Number(driver))} · {cash.day}
            </h2>
            <div class="cod-figures">
              <Figure label="Float given" cents={cash.float_cents} currency={currency} testid="fig-float" />
              <Figure label="Cash collected" cents={cash.cash_collected_cents} currency={currency} testid="fig-cash" />
              <Figure label="Card (terminal)" cents={cash.card_collected_cents} currency={currency} testid="fig-card" />
              <Figure
                label={cash.handed_over ? 'Still held' : 'Expected at the count'}
                cents={cash.cash_held_cents}
                currency={currency}
                testid="fig-expected"
              />
              {cash.debt_cents !== 0 && (
                <Figure label="Driver owes (all days)" cents={cash.debt_cents} currency={currency} tone="short" testid="fig-debt" />
              )}
            </div>
          </div>
          {cash.handed_over ? (
            <div class="card stack" data-testid="handover-done">
              <h2>Counted</h2>
              <p>
                Counted {money(cash.handed_over.counted_cents, currency)} of {money(cash.handed_over.expected_cents, currency)} expected:{' '}
                <span
                  class={`cod-difference ${cash.handed_over.difference_cents < 0 ? 'short' : cash.handed_over.difference_cents > 0 ? 'over' : ''}`}
                  data-testid="handover-difference"
                >
                  {differenceWords(cash.handed_over.difference_cents, currency)}
                </span>
                {cash.handed_over.difference_cents < 0 && ', recorded against the driver'}.
              </p>
              {cash.handed_over.note && <p class="muted">{cash.handed_over.note}</p>}
            </div>
          ) : (
            <div class="form-grid">
              <div class="card stack">
                <h2>Give a float</h2>
                <MoneyField
                  name="float"
                  label="Float"
                  value={floatText}
                  onValue={setFloatText}
                  currency={currency}
                  error={errors.amount_cents}
                />
                <Button
                  busy={busy}
                  disabled={parseMoney(floatText, currency) == null}
                  onClick={() =>
                    void send(
                      'cod/float/',
                      { amount_cents: parseMoney(floatText, currency) },
                      `Float of ${money(parseMoney(floatText, currency), currency)} given`,
                    )
                  }
                >
                  Give float
                </Button>
              </div>
              <div class="card stack">
                <h2>Count the cash</h2>
                <MoneyField
                  name="counted"
                  label="Counted"
                  value={counted}
                  onValue={setCounted}
                  currency={currency}
                  error={errors.counted_cents}
                  hint={`Expected ${money(expected, currency)}: the float plus the cash collected`}
                />
                {outcome && (
                  <p data-testid="count-difference">
                    Difference:{' '}
                    <span class={`cod-difference ${outcome.difference_cents < 0 ? 'short' : outcome.difference_cents > 0 ? 'over' : ''}`}>
                      {differenceWords(outcome.difference_cents, currency)}
                    </span>
                  </p>
                )}
                <TextField name="note" label="Note" value={note} onValue={setNote} error={errors.note} />
                <Button
                  variant="primary"
                  busy={busy}
                  disabled={countedCents == null}
                  onClick={() =>
                    void send('cod/handover/', { counted_cents: countedCents, ...(note ? { note } : {}) }, 'Hand-over recorded')
                  }
                >
                  Record hand-over
                </Button>
              </div>
            </div>
          )}
        </>
      )}
    </section>
  );
}
