import { useEffect, useState } from 'preact/hooks';
import type { PackageCod } from '../../../shared/schemas/cod';
import { api, errorMessage, fieldErrors } from '../../api/client';
import type { Session } from '../../app/session';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { toast } from '../../ui/toast';
import { money, parseMoney } from '../money/format';
import { MoneyField } from '../money/MoneyField';
import { dateTime } from '../../ui/when';

const WAIVERS = new Set(['super_admin', 'admin', 'supervisor', 'depot_manager']);

/**
 * A parcel's cash on delivery (issue 34): the amount, what the office waived and why, what the driver
 * collected and how. The office waives what a recipient cannot pay (a reason is required and audited);
 * the driver's phone then asks only for the rest.
 */
export function CodCard({ id, session, onChanged }: { id: number; session: Session | undefined; onChanged?: () => void }) {
  const [cod, setCod] = useState<PackageCod | null>(null);
  const [tick, setTick] = useState(0);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    api.get<{ cod: PackageCod | null }>(`package/${id}/cod/`).then(
      (r) => live && setCod(r.cod),
      () => live && setCod(null),
    );
    return () => {
      live = false;
    };
  }, [id, tick]);
  if (!cod) return null;
  const c = cod.currency;
  const open = cod.collected_at == null && cod.required_cents > 0;
  const canWaive = open && WAIVERS.has(session?.user.role ?? '');
  const waive = async () => {
    setBusy(true);
    setErrors({});
    try {
      const cents = amount.trim() ? parseMoney(amount, c) : null;
      await api.post(`package/${id}/cod/waive/`, { reason, ...(cents != null ? { amount_cents: cents } : {}) });
      toast('Waived: the driver collects the rest', 'ok');
      setAmount('');
      setReason('');
      setTick((n) => n + 1);
      onChanged?.();
    } catch (err) {
      setErrors(fieldErrors(err));
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="card stack" data-testid="cod-card">
      <h2 style={{ marginTop: 0 }}>Cash on delivery</h2>
      <dl class="dl">
        <dt>Amount</dt>
        <dd data-testid="cod-amount">{money(cod.amount_cents, c)}</dd>
        {cod.waived_cents > 0 && (
          <>
            <dt>Waived</dt>
            <dd data-testid="cod-waived">
              {money(cod.waived_cents, c)}
              {cod.waive_reason ? ` (${cod.waive_reason})` : ''}
            </dd>
          </>
        )}
        <dt>{cod.collected_at ? 'Collected' : 'To collect'}</dt>
        <dd data-testid="cod-collected">
          {cod.collected_at
            ? `${money(cod.collected_cents, c)} by ${cod.method === 'card' ? "card (company's terminal)" : 'cash'}, ${dateTime(cod.collected_at)}`
            : money(cod.required_cents, c)}
        </dd>
      </dl>
      {canWaive && (
        <div class="form-grid">
          <MoneyField
            name="waive-amount"
            label="Waive"
            value={amount}
            onValue={setAmount}
            currency={c}
            error={errors.amount_cents}
            hint={`Empty: all of ${money(cod.required_cents, c)}`}
          />
          <TextField name="waive-reason" label="Why" value={reason} onValue={setReason} error={errors.reason} required />
          <Button busy={busy} disabled={!reason.trim()} onClick={() => void waive()}>
            Waive
          </Button>
        </div>
      )}
    </div>
  );
}
