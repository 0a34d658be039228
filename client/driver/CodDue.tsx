import { minimumToCollect, type CodOnPhone } from '../../shared/cod';
import { formatMinor } from '../../shared/money';

/** "AUD 50.00": an amount as the phone shows money. */
export const codMoney = (cents: number, currency: string) => `${currency} ${formatMinor(cents, currency)}`;

/**
 * What the driver must collect at this stop (issue 34), from the phone's copy: shown on the stop card
 * and the Deliver screen before the driver knocks, with no signal too; a waiver the office made shows
 * as the smaller amount once synced.
 */
export function CodDue({ cod }: { cod?: CodOnPhone | undefined }) {
  if (!cod) return null;
  const due = minimumToCollect(cod);
  return (
    <div class="cod-due" data-testid="cod-due" role="note">
      <span class="eyebrow">Collect on delivery</span> <strong data-testid="cod-amount">{codMoney(due, cod.currency)}</strong>
      {cod.waived_cents > 0 && (
        <span class="muted small">
          {' '}
          ({codMoney(cod.amount_cents, cod.currency)} less {codMoney(cod.waived_cents, cod.currency)} waived by the office)
        </span>
      )}
    </div>
  );
}
