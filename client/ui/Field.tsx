import type { ComponentChildren, JSX } from 'preact';
import { useId } from 'preact/hooks';

export interface FieldProps {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  required?: boolean;
  wide?: boolean;
  /** Renders the control with the ids that tie it to its label and messages. */
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ComponentChildren;
}

/** Label, control, hint and error, wired for screen readers (aria-describedby, aria-invalid). */
export function Field({ label, error, hint, required, wide, children }: FieldProps) {
  const id = useId();
  const msgId = `${id}-msg`;
  const describedBy = error || hint ? msgId : undefined;
  return (
    <div class={`field${wide ? ' wide' : ''}`}>
      <label for={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {error ? (
        <span id={msgId} class="error" role="alert">
          {error}
        </span>
      ) : hint ? (
        <span id={msgId} class="hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}

type InputAttrs = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'onInput' | 'value' | 'label' | 'type' | 'required'>;

export function TextField({
  label,
  value,
  onValue,
  error,
  hint,
  required,
  type = 'text',
  wide,
  ...rest
}: InputAttrs & {
  label: string;
  value: string;
  onValue: (v: string) => void;
  error?: string | undefined;
  hint?: string | undefined;
  required?: boolean;
  type?: string;
  wide?: boolean;
}) {
  return (
    <Field label={label} error={error} hint={hint} required={required} wide={wide}>
      {({ id, describedBy, invalid }) => (
        <input
          {...rest}
          id={id}
          class="input"
          type={type}
          value={value}
          required={required}
          aria-invalid={invalid ? 'true' : undefined}
          aria-describedby={describedBy}
          onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
        />
      )}
    </Field>
  );
}

/** A multi-line text input (postal address, payment instructions). */
export function TextAreaField({
  label,
  value,
  onValue,
  error,
  hint,
  required,
  wide,
  rows = 3,
  maxLength,
  name,
}: {
  label: string;
  value: string;
  onValue: (v: string) => void;
  error?: string | undefined;
  hint?: string | undefined;
  required?: boolean;
  wide?: boolean;
  rows?: number;
  maxLength?: number;
  name?: string;
}) {
  return (
    <Field label={label} error={error} hint={hint} required={required} wide={wide}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          name={name}
          class="input"
          rows={rows}
          maxLength={maxLength}
          value={value}
          required={required}
          aria-invalid={invalid ? 'true' : undefined}
          aria-describedby={describedBy}
          onInput={(e) => onValue((e.currentTarget as HTMLTextAreaElement).value)}
        />
      )}
    </Field>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  label,
  value,
  onValue,
  options,
  error,
  hint,
  required,
  placeholder,
  wide,
  name,
}: {
  label: string;
  value: string;
  onValue: (v: string) => void;
  options: readonly Option[];
  error?: string | undefined;
  hint?: string | undefined;
  required?: boolean;
  placeholder?: string;
  wide?: boolean;
  name?: string;
}) {
  return (
    <Field label={label} error={error} hint={hint} required={required} wide={wide}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          name={name}
          class="input"
          value={value}
          aria-invalid={invalid ? 'true' : undefined}
          aria-describedby={describedBy}
          onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}
        >
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function CheckField({
  label,
  checked,
  onValue,
  error,
  name,
}: {
  label: string;
  checked: boolean;
  onValue: (v: boolean) => void;
  error?: string | undefined;
  name?: string;
}) {
  return (
    <div class="field">
      <label class="check">
        <input type="checkbox" name={name} checked={checked} onChange={(e) => onValue((e.currentTarget as HTMLInputElement).checked)} />
        {label}
      </label>
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
