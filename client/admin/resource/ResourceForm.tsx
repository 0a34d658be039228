import { useMemo, useState } from 'preact/hooks';
import type { z } from 'zod';
import { api, errorMessage, fieldErrors } from '../../api/client';
import { zodErrors } from '../../app/zodErrors';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { CheckField, Field, SelectField, TextField } from '../../ui/Field';
import { fieldsOf, initialValues, toBody, type FieldSpec, type FormValues } from './zodFields';
import { REFS } from './declarations';
import { useRefOptions } from './refOptions';
import type { RefDecl, ResourceDecl, Row } from './types';

export function labelOf(decl: ResourceDecl, name: string): string {
  const given = decl.labels?.[name];
  if (given) return given;
  const words = name.replace(/_id$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function RefField({
  spec,
  label,
  value,
  onValue,
  error,
  hint,
  refDecl,
}: {
  spec: FieldSpec;
  label: string;
  value: string;
  onValue: (v: string) => void;
  error?: string;
  hint?: string;
  refDecl: RefDecl;
}) {
  const { options, failed } = useRefOptions(refDecl);
  // A value the list does not hold (archived, or the list failed) still shows rather than vanishing.
  const all = value && !options.some((o) => o.value === value) ? [...options, { value, label: `#${value}` }] : options;
  return (
    <SelectField
      name={spec.name}
      label={label}
      value={value}
      onValue={onValue}
      options={all}
      error={error}
      hint={failed ? 'The list could not be loaded' : hint}
      required={spec.required}
      placeholder={spec.required ? 'Choose…' : '— none —'}
    />
  );
}

function Control({
  decl,
  spec,
  value,
  onValue,
  error,
}: {
  decl: ResourceDecl;
  spec: FieldSpec;
  value: string | boolean;
  onValue: (v: string | boolean) => void;
  error?: string;
}) {
  const label = labelOf(decl, spec.name);
  const hint = decl.hints?.[spec.name];
  const refDecl = decl.refs?.[spec.name] ?? (spec.kind === 'integer' ? REFS[spec.name] : undefined);
  if (spec.kind === 'boolean')
    return <CheckField name={spec.name} label={label} checked={value === true} onValue={onValue} error={error} />;
  const text = typeof value === 'string' ? value : '';
  if (refDecl) return <RefField spec={spec} label={label} value={text} onValue={onValue} error={error} hint={hint} refDecl={refDecl} />;
  if (spec.kind === 'enum') {
    return (
      <SelectField
        name={spec.name}
        label={label}
        value={text}
        onValue={onValue}
        error={error}
        hint={hint}
        required={spec.required}
        placeholder={spec.required ? 'Choose…' : '—'}
        options={(spec.options ?? []).map((o) => ({ value: o, label: o.replace(/_/g, ' ') }))}
      />
    );
  }
  if (spec.kind === 'textarea') {
    return (
      <Field label={label} error={error} hint={hint} required={spec.required} wide>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            name={spec.name}
            class="input"
            value={text}
            maxLength={spec.maxLength}
            aria-invalid={invalid ? 'true' : undefined}
            aria-describedby={describedBy}
            onInput={(e) => onValue((e.currentTarget as HTMLTextAreaElement).value)}
          />
        )}
      </Field>
    );
  }
  const type = spec.kind === 'integer' || spec.kind === 'number' || spec.kind === 'list' ? 'text' : spec.kind;
  return (
    <TextField
      name={spec.name}
      label={label}
      type={type}
      value={text}
      onValue={onValue}
      error={error}
      hint={hint}
      required={spec.required}
      maxLength={spec.maxLength}
      inputMode={spec.kind === 'integer' ? 'numeric' : spec.kind === 'number' ? 'decimal' : undefined}
      autoComplete={spec.kind === 'password' ? 'new-password' : 'off'}
    />
  );
}

/**
 * Create or edit form generated from the declaration's zod schema: the same schema the server
 * validates with, so most mistakes are caught before sending; the server's errors[] land on the
 * same fields when it finds more (duplicates, missing parents).
 */
export function ResourceForm({
  decl,
  record,
  onClose,
  onSaved,
}: {
  decl: ResourceDecl;
  record: Row | null;
  onClose: () => void;
  onSaved: (row: Row | null) => void;
}) {
  const mode = record ? 'edit' : 'create';
  const schema = (mode === 'edit' ? (decl.update ?? decl.create?.partial()) : decl.create) as z.ZodObject;
  const fields = useMemo(
    () => fieldsOf(schema).filter((f) => !decl.omit?.includes(f.name) && (mode === 'create' || !decl.createOnly?.includes(f.name))),
    [schema, mode],
  );
  const refNames = useMemo(
    () => new Set(fields.filter((f) => decl.refs?.[f.name] || (f.kind === 'integer' && REFS[f.name])).map((f) => f.name)),
    [fields],
  );
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, record ?? undefined));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  const save = async (e: Event) => {
    e.preventDefault();
    setFailure('');
    const body = toBody(fields, values, mode, refNames);
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const found = zodErrors(parsed.error);
      setErrors(found);
      // A mistake on a field the form does not show is named, never left as "the marked fields" with nothing marked.
      const unseen = Object.entries(found)
        .filter(([k]) => !fields.some((f) => f.name === k))
        .map(([k, m]) => `${labelOf(decl, k)}: ${m}`);
      setFailure(unseen.length ? `Please correct: ${unseen.join('; ')}` : 'Please correct the marked fields.');
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      // The raw body goes out, not zod's output: the server applies its own transforms. An edit sends
      // every field of the form, not just the changed ones: update schemas built with `.partial()`
      // over fields with `.default()` fill the defaults in for absent keys, so a one-field PATCH
      // would reset the others on the server.
      const saved = record
        ? await api.patch<Row | Record<string, never>>(`${decl.name}/${record.id}/`, definedOnly(body))
        : await api.post<Row>(`${decl.name}/`, body);
      onSaved(saved && 'id' in saved ? (saved as Row) : null);
    } catch (err) {
      setErrors(fieldErrors(err));
      setFailure(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={record ? `Edit ${decl.singular.toLowerCase()} #${record.id}` : `New ${decl.singular.toLowerCase()}`}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" busy={busy} form="resource-form">
            {record ? 'Save changes' : `Create ${decl.singular.toLowerCase()}`}
          </Button>
        </>
      }
    >
      <form id="resource-form" class="stack" onSubmit={save} noValidate>
        {failure && (
          <div class="form-error" role="alert" data-testid="form-error">
            {failure}
          </div>
        )}
        <div class="form-grid">
          {fields.map((f) => (
            <Control
              key={f.name}
              decl={decl}
              spec={f}
              value={values[f.name] ?? ''}
              error={errors[f.name]}
              onValue={(v) => setValues((prev) => ({ ...prev, [f.name]: v }))}
            />
          ))}
        </div>
        {errors._ && <div class="form-error">{errors._}</div>}
      </form>
    </Dialog>
  );
}

function definedOnly(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}
