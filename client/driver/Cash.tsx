import type { z } from 'zod';
import type { DriverCash } from '../../shared/schemas/cod';
import type { Collection } from '../../shared/cod';
import { driverActionOfPath } from '../../shared/driverActions';
import { codMoney } from './CodDue';
import { useOutbox } from './hooks';
import { OnlineState } from './OnlineState';
import { useOnline } from './useOnline';

type Answer = z.infer<typeof DriverCash>;

/** Cash the phone collected that the server has not heard of yet (deliveries still in the outbox), by currency-less cents. */
function unsentCash(rows: ReturnType<typeof useOutbox>[0]): { cents: number; count: number } {
  let cents = 0;
  let count = 0;
  for (const r of rows) {
    if (r.status === 'rejected' || driverActionOfPath(r.path)?.kind !== 'deliver') continue;
    const c = r.body.collection as Collection | undefined;
    if (c?.method === 'cash' && c.amount_cents > 0) {
      cents += c.amount_cents;
      count += 1;
    }
  }
  return { cents, count };
}

/**
 * The driver's cash for the day (issue 34): the float the depot gave, the cash collected at doors, what
 * the driver should hand over, and card payments taken on the company's terminal. The server's figures
 * need signal; deliveries still waiting on the phone are added below them, so nothing collected is missing.
 */
export default function Cash() {
  const res = useOnline<Answer>('cod/driver-cash/');
  const [outbox] = useOutbox();
  const unsent = unsentCash(outbox);
  return (
    <div class="drv-screen" data-testid="cash-screen">
      <h1>Cash today</h1>
      <OnlineState {...res}>
        {(a) => (
          <>
            <p class="muted">{a.day}</p>
            <div class="counts">
              <div class="count">
                <b data-testid="cash-float">{codMoney(a.float_cents, a.currency)}</b>
                <span>Float</span>
              </div>
              <div class="count">
                <b data-testid="cash-collected">{codMoney(a.cash_collected_cents, a.currency)}</b>
                <span>Cash collected</span>
              </div>
              <div class="count ok">
                <b data-testid="cash-held">{codMoney(a.cash_held_cents, a.currency)}</b>
                <span>{a.handed_over ? 'Held after hand-over' : 'To hand over'}</span>
              </div>
              <div class="count">
                <b data-testid="card-collected">{codMoney(a.card_collected_cents, a.currency)}</b>
                <span>On card</span>
              </div>
            </div>
            {a.handed_over && (
              <p data-testid="cash-handed-over">
                Handed over {codMoney(a.handed_over.counted_cents, a.currency)}
                {a.handed_over.difference_cents !== 0 &&
                  ` (${a.handed_over.difference_cents < 0 ? 'short' : 'over'} by ${codMoney(Math.abs(a.handed_over.difference_cents), a.currency)})`}
              </p>
            )}
            {a.debt_cents > 0 && <p class="must-return">You owe the depot {codMoney(a.debt_cents, a.currency)} from earlier counts.</p>}
            {unsent.count > 0 && (
              <p class="muted" data-testid="cash-unsent">
                Plus {codMoney(unsent.cents, a.currency)} from {unsent.count} {unsent.count === 1 ? 'delivery' : 'deliveries'} not sent yet.
              </p>
            )}
          </>
        )}
      </OnlineState>
    </div>
  );
}
