import { useState } from 'preact/hooks';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { Field, SelectField, TextField } from '../../../ui/Field';
import { REFS } from '../../resource/declarations';
import { useRefOptions } from '../../resource/refOptions';
import type { PackageRow } from '../columns';
import { ACTIONS, runAction, type ActionKind } from './rules';

interface Failure {
  hawb: string;
  message: string;
}

/**
 * Confirmation of one exception action for one parcel or a selection: a reason is required (it goes
 * into each parcel's history), a driver for a re-attempt. Parcels are sent one by one so one refusal
 * (a parcel that moved meanwhile) does not stop the others; refusals are listed by tracking number.
 */
export function ActionDialog({
  kind,
  packages,
  onClose,
  onDone,
}: {
  kind: ActionKind;
  packages: Pick<PackageRow, 'id' | 'hawb' | 'status'>[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const spec = ACTIONS[kind];
  const drivers = useRefOptions(spec.needsDriver ? REFS.driver : undefined);
  const [note, setNote] = useState('');
  const [driver, setDriver] = useState('');
  const [recipient, setRecipient] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failures, setFailures] = useState<Failure[]>([]);
  const [busy, setBusy] = useState(false);
  /** Set once some parcels went through and others were refused: closing then reports and reloads. */
  const [partial, setPartial] = useState<string | null>(null);
  const close = () => (partial ? onDone(partial) : onClose());
  const n = packages.length;
  const what = n === 1 ? `parcel ${packages[0]?.hawb ?? ''}` : `${n} parcels`;

  const submit = async () => {
    const errs: Record<string, string> = {};
    if (!note.trim()) errs.note = 'Say why: it is kept in the history';
    if (spec.needsDriver && !driver) errs.driver = 'Choose a driver';
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    const failed: Failure[] = [];
    for (const p of packages) {
      try {
        await runAction(kind, p, { note, driver: driver ? Number(driver) : undefined, recipient_name: recipient });
      } catch (err) {
        failed.push({ hawb: p.hawb, message: errorMessage(err) });
      }
    }
    setBusy(false);
    const ok = n - failed.length;
    if (failed.length === 0) {
      onDone(`${spec.label}: ${n === 1 ? `parcel ${packages[0]?.hawb}` : `${ok} parcels`} done`);
      return;
    }
    setFailures(failed);
    if (ok > 0) setPartial(`${spec.label}: ${ok} done, ${failed.length} refused`);
  };

  return (
    <Dialog
      title={`${spec.label}: ${what}?`}
      narrow
      onClose={close}
      footer={
        <>
          <Button onClick={close}>{failures.length ? 'Close' : 'Back'}</Button>
          {!failures.length && (
            <Button variant={spec.danger ? 'danger' : 'primary'} busy={busy} onClick={() => void submit()} data-testid="action-confirm">
              {spec.label}
            </Button>
          )}
        </>
      }
    >
      <div class="stack">
        <p>{spec.explain}</p>
        {spec.needsDriver && (
          <SelectField
            name="driver"
            label="Driver"
            value={driver}
            onValue={setDriver}
            options={drivers.options}
            placeholder="Choose a driver…"
            required
            error={errors.driver}
          />
        )}
        {kind === 'force_deliver' && (
          <TextField name="recipient" label="Received by (optional)" value={recipient} onValue={setRecipient} maxLength={200} />
        )}
        <Field label="Reason" required error={errors.note} hint="Kept in the parcel's history with your name">
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              name="reason"
              class="input"
              rows={3}
              maxLength={1000}
              value={note}
              aria-invalid={invalid ? 'true' : undefined}
              aria-describedby={describedBy}
              onInput={(e) => setNote((e.currentTarget as HTMLTextAreaElement).value)}
            />
          )}
        </Field>
        {failures.length > 0 && (
          <div role="alert" class="card" data-testid="action-failures">
            <strong>{failures.length} parcel(s) were refused:</strong>
            <ul>
              {failures.map((f) => (
                <li key={f.hawb}>
                  <span class="mono">{f.hawb}</span>: {f.message}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </Dialog>
  );
}
