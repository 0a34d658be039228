import { Field } from '../../ui/Field';

/**
 * An amount typed in major units ("12.50") for a value kept in minor units. The parent keeps the
 * text, so a half-typed "12." is not reformatted under the cursor; parseMoney turns it into cents.
 */
export function MoneyField({
  label,
  value,
  onValue,
  currency,
  error,
  hint,
  required,
  name,
}: {
  label: string;
  value: string;
  onValue: (v: string) => void;
  currency: string;
  error?: string | undefined;
  hint?: string;
  required?: boolean;
  name?: string;
}) {
  return (
    <Field label={`${label} (${currency})`} error={error} hint={hint} required={required}>
      {({ id, describedBy, invalid }) => (
        <div class="money-input">
          <input
            id={id}
            name={name}
            class="input"
            inputMode="decimal"
            autoComplete="off"
            value={value}
            required={required}
            aria-invalid={invalid ? 'true' : undefined}
            aria-describedby={describedBy}
            // A prefilled "0.00" is selected on focus, so typing replaces it instead of making "1.200.00".
            onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
            onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
          />
          <span class="cur" aria-hidden="true">
            {currency}
          </span>
        </div>
      )}
    </Field>
  );
}
