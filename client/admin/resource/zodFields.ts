import { z } from 'zod';

export type FieldKind = 'text' | 'email' | 'password' | 'textarea' | 'date' | 'number' | 'integer' | 'boolean' | 'enum';

/** What a form needs to know about one property of a zod object, read from the schema itself. */
export interface FieldSpec {
  name: string;
  kind: FieldKind;
  /** Must be filled in: not optional, no default, and for text at least one character. */
  required: boolean;
  nullable: boolean;
  options?: readonly string[];
  defaultValue?: unknown;
  maxLength?: number;
  min?: number;
  max?: number;
}

interface Unwrapped {
  inner: z.ZodType;
  optional: boolean;
  nullable: boolean;
  hasDefault: boolean;
  defaultValue?: unknown;
}

/** Peels optional/nullable/default/pipe wrappers off a property schema. */
function unwrap(schema: z.ZodType): Unwrapped {
  let s: z.ZodType = schema;
  let optional = false;
  let nullable = false;
  let hasDefault = false;
  let defaultValue: unknown;
  for (let i = 0; i < 10; i++) {
    if (s instanceof z.ZodOptional) { optional = true; s = s.unwrap() as z.ZodType; continue; }
    if (s instanceof z.ZodNullable) { nullable = true; s = s.unwrap() as z.ZodType; continue; }
    if (s instanceof z.ZodDefault) {
      hasDefault = true;
      defaultValue = s.def.defaultValue;
      s = s.unwrap() as z.ZodType;
      continue;
    }
    break;
  }
  return { inner: s, optional, nullable, hasDefault, defaultValue };
}

const LONG_TEXT = 400;

function kindOf(name: string, s: z.ZodType): Pick<FieldSpec, 'kind' | 'options' | 'maxLength' | 'min' | 'max'> | null {
  if (s instanceof z.ZodPipe) {
    // `email()` is a trimmed string piped into z.email(): the output side says what it is.
    const out = s.out as z.ZodType;
    if (out instanceof z.ZodEmail) return { kind: 'email' };
    return kindOf(name, s.in as z.ZodType);
  }
  if (s instanceof z.ZodUnion) {
    // e.g. a postcode or '' / a date or a datetime: the first member decides the input.
    const first = s.options[0] as z.ZodType | undefined;
    return first ? kindOf(name, first) : null;
  }
  if (s instanceof z.ZodEmail) return { kind: 'email' };
  if (s instanceof z.ZodISODate) return { kind: 'date' };
  if (s instanceof z.ZodString) {
    const maxLength = s.maxLength ?? undefined;
    if (/password/.test(name)) return { kind: 'password', maxLength };
    if (s.format === 'date') return { kind: 'date' };
    return { kind: maxLength != null && maxLength >= LONG_TEXT ? 'textarea' : 'text', maxLength };
  }
  if (s instanceof z.ZodNumber) {
    return { kind: s.isInt ? 'integer' : 'number', min: s.minValue ?? undefined, max: s.maxValue ?? undefined };
  }
  if (s instanceof z.ZodBoolean) return { kind: 'boolean' };
  if (s instanceof z.ZodEnum) return { kind: 'enum', options: s.options.map(String) };
  return null;
}

/** The form fields of an object schema, in declaration order; unsupported property types are skipped. */
export function fieldsOf(schema: z.ZodObject): FieldSpec[] {
  const out: FieldSpec[] = [];
  for (const [name, prop] of Object.entries(schema.shape)) {
    const u = unwrap(prop as z.ZodType);
    const k = kindOf(name, u.inner);
    if (!k) continue;
    const minLength = u.inner instanceof z.ZodString ? u.inner.minLength ?? 0 : 0;
    const textLike = k.kind === 'text' || k.kind === 'textarea' || k.kind === 'email' || k.kind === 'password' || k.kind === 'date';
    const required = !u.optional && !u.hasDefault && !u.nullable && (!textLike || minLength > 0 || k.kind === 'email' || k.kind === 'date');
    out.push({ name, ...k, required, nullable: u.nullable, defaultValue: u.hasDefault ? u.defaultValue : undefined });
  }
  return out;
}

/** A form holds strings and booleans; this is what an empty form shows. */
export type FormValues = Record<string, string | boolean>;

export function initialValues(fields: readonly FieldSpec[], record?: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = record ? record[f.name] : f.defaultValue;
    if (f.kind === 'boolean') values[f.name] = typeof v === 'boolean' ? v : f.name === 'is_active';
    else if (f.kind === 'password') values[f.name] = '';
    else values[f.name] = v == null ? '' : String(v);
  }
  return values;
}

/**
 * Form strings -> the typed body the schema expects. Empty inputs become `undefined` on create (so
 * defaults apply) and `null` for nullable fields on edit (so a value can be cleared).
 */
export function toBody(fields: readonly FieldSpec[], values: FormValues, mode: 'create' | 'edit', refFields: ReadonlySet<string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = values[f.name];
    if (typeof raw === 'boolean') { body[f.name] = raw; continue; }
    const text = (raw ?? '').trim();
    const numeric = f.kind === 'number' || f.kind === 'integer' || refFields.has(f.name);
    if (text === '') {
      if (f.kind === 'password') continue;
      if (f.nullable && mode === 'edit') body[f.name] = null;
      else if (f.required) body[f.name] = numeric || f.kind === 'enum' ? undefined : raw;
      else if (numeric || f.kind === 'enum' || f.kind === 'date' || mode === 'create') body[f.name] = undefined;
      else body[f.name] = '';
      continue;
    }
    if (numeric) body[f.name] = Number(text.replace(',', '.'));
    else body[f.name] = raw;
  }
  return body;
}
