import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { CodPosition } from '../../../shared/schemas/cod';
import { api, errorMessage, fieldErrors } from '../../api/client';
import { can } from '../../app/access';
import type { Session } from '../../app/session';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { money, parseMoney } from '../money/format';
import { MoneyField } from '../money/MoneyField';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';

type Position = z.infer<typeof CodPosition>;

/**
 * What the courier owes a shipper for cash collected on its parcels (issue 34): collected, netted on
 * its statements, paid out, still owed; the courier's money staff pay it out here (a `cod_payout`
 * debit of its wallet, never more than owed). A company login sees its own.
 */
export default function Shippers({ session }: { session: Session }) {
  const own = session.user.role === 'company' ? session.user.company : null;
  const companies = useRefOptions(own == null ? REFS.company : undefined);
  const [companyId, setCompany] = useState(own != null ? String(own) : '');
  const [pos, setPos] = useState<Position | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const canPay = own == null && can(session.user.role, 'wallet.manage');

  useEffect(() => {
    setPos(null);
    setError(null);
    if (!companyId) return;
    let live = true;
    api.get<Position>(`cod/company/${companyId}/`).then(
      (p) => live && setPos(p),
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [companyId, tick]);

  const currency = pos?.currency ?? 'AUD';
  const cents = parseMoney(amount, currency);
  const payOut = async () => {
    setBusy(true);
    setErrors({});
    try {
      await api.post('cod/payout/', { company: Number(companyId), amount_cents: cents, ...(reference ? { reference } : {}) });
      toast(`Paid out ${money(cents, currency)}`, 'ok');
      setAmount('');
      setReference('');
      setTick((n) => n + 1);
    } catch (err) {
      setErrors(fieldErrors(err));
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="stack" aria-labelledby="shippers-title">
      <div class="page-head">
        <h1 id="shippers-title">Cash on delivery owed to shippers</h1>
      </div>
      {own == null && (
        <div class="card">
          <SelectField
            name="company"
            label="Shipper"
            value={companyId}
            onValue={setCompany}
            placeholder="Choose a company"
            options={companies.options}
          />
        </div>
      )}
      {!companyId ? (
        <div class="card">
          <Empty title="Choose a shipper" />
        </div>
      ) : error ? (
        <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />
      ) : !pos ? (
        <Loading />
      ) : (
        <>
          <div class="card stack" data-testid="cod-position">
            <h2>Statement</h2>
            <div class="cod-figures">
              <div class="figure" data-testid="pos-collected">
                <b>{money(pos.collected_cents, currency)}</b>
                <span class="muted">Collected from recipients</span>
              </div>
              <div class="figure" data-testid="pos-netted">
                <b>{money(pos.netted_cents, currency)}</b>
                <span class="muted">Netted against charges</span>
              </div>
              <div class="figure" data-testid="pos-paid">
                <b>{money(pos.paid_cents, currency)}</b>
                <span class="muted">Paid out</span>
              </div>
              <div class={`figure ${pos.owed_cents > 0 ? 'over' : ''}`} data-testid="pos-owed">
                <b>{money(pos.owed_cents, currency)}</b>
                <span class="muted">Still owed to the shipper</span>
              </div>
            </div>
            <p class="muted small">
              Each collection and pay-out is a line of the shipper's wallet (kinds "Cash on delivery collected" and "paid out").
            </p>
          </div>
          {canPay && (
            <div class="card stack">
              <h2>Pay out</h2>
              <MoneyField
                name="payout"
                label="Amount"
                value={amount}
                onValue={setAmount}
                currency={currency}
                error={errors.amount_cents}
                hint={`At most ${money(pos.owed_cents, currency)}`}
              />
              <TextField
                name="reference"
                label="Reference"
                value={reference}
                onValue={setReference}
                hint="e.g. the bank transfer's reference"
              />
              <Button variant="primary" busy={busy} disabled={cents == null || cents <= 0} onClick={() => void payOut()}>
                Pay out
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
