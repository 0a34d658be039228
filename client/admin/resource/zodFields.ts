import { z } from 'zod';

/** `list` is a list of short words (a van's skills) typed as one line, separated by commas. */
export type FieldKind = 'text' | 'email' | 'password' | 'textarea' | 'date' | 'number' | 'integer' | 'boolean' | 'enum' | 'list';

/** What a form needs to know about one property of a zod object, read from the schema itself. */
export interface FieldSpec {
  name: string;
  kind: FieldKind;
  /** Must be filled in: not optional, no default, and for text at least one character. */
  required: boolean;
  nullable: boolean;
  /** The schema refuses the key being absent (a required nullable field is sent as null when empty). */
  present: boolean;
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

/**
 * Peels the wrappers that do not change what is typed into a control: optional, nullable, default,
 * prefault, catch, readonly, and `.required()`'s non-optional (which overrides an optional inside it:
 * `Fields.partial().required({ name: true })` is how the geography schemas make a field required).
 */
function unwrap(schema: z.ZodType): Unwrapped {
  let s: z.ZodType = schema;
  let optional = false;
  let forced = false;
  let nullable = false;
  let hasDefault = false;
  let defaultValue: unknown;
  for (let i = 0; i < 20; i++) {
    if (s instanceof z.ZodNonOptional) {
      forced = true;
      s = s.unwrap() as z.ZodType;
      continue;
    }
    if (s instanceof z.ZodOptional || s instanceof z.ZodExactOptional) {
      if (!forced) optional = true;
      s = s.unwrap() as z.ZodType;
      continue;
    }
    if (s instanceof z.ZodNullable) {
      nullable = true;
      s = s.unwrap() as z.ZodType;
      continue;
    }
    if (s instanceof z.ZodDefault || s instanceof z.ZodPrefault) {
      if (!forced) {
        hasDefault = true;
        const d = s.def.defaultValue;
        defaultValue = typeof d === 'function' ? (d as () => unknown)() : d;
      }
      s = s.unwrap() as z.ZodType;
      continue;
    }
    if (s instanceof z.ZodCatch) {
      s = s.unwrap() as z.ZodType;
      continue;
    }
    if (s instanceof z.ZodReadonly) {
      s = s.unwrap() as z.ZodType;
      continue;
    }
    if (s instanceof z.ZodLazy) {
      s = s.unwrap() as z.ZodType;
      continue;
    }
    break;
  }
  return { inner: s, optional, nullable, hasDefault, defaultValue };
}

const LONG_TEXT = 400;

type Kind = Pick<FieldSpec, 'kind' | 'options' | 'maxLength' | 'min' | 'max'>;

function kindOf(name: string, s: z.ZodType): Kind | null {
  if (s instanceof z.ZodPipe) {
    // `email()` is a trimmed string piped into z.email(): the output side says what it is when it
    // is a schema of its own; a transform's output (`.transform(...)`) says nothing, so the input decides.
    const out = s.out as z.ZodType;
    if (out instanceof z.ZodEmail) return { kind: 'email' };
    const fromIn = kindOf(name, s.in as z.ZodType);
    if (fromIn) return fromIn;
    return out instanceof z.ZodTransform ? null : kindOf(name, out);
  }
  if (
    s instanceof z.ZodOptional ||
    s instanceof z.ZodNullable ||
    s instanceof z.ZodDefault ||
    s instanceof z.ZodNonOptional ||
    s instanceof z.ZodPrefault ||
    s instanceof z.ZodCatch ||
    s instanceof z.ZodReadonly
  ) {
    return kindOf(name, unwrap(s).inner);
  }
  if (s instanceof z.ZodUnion) {
    // e.g. a postcode or '' / a date or a datetime: the first member that a control can hold decides.
    const literals = s.options.filter((o): o is z.ZodLiteral => o instanceof z.ZodLiteral);
    if (literals.length === s.options.length) {
      const options = literals
        .flatMap((l) => [...l.values])
        .filter((v) => v !== '')
        .map(String);
      return { kind: 'enum', options };
    }
    for (const o of s.options) {
      if (o instanceof z.ZodLiteral) continue;
      const k = kindOf(name, o as z.ZodType);
      if (k) return k;
    }
    return null;
  }
  if (s instanceof z.ZodLiteral) {
    const options = [...s.values].map(String);
    return { kind: 'enum', options };
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
  if (s instanceof z.ZodArray && kindOf(name, unwrap(s.element as z.ZodType).inner)?.kind === 'text') return { kind: 'list' };
  if (s instanceof z.ZodEnum) return { kind: 'enum', options: s.options.map(String) };
  return null;
}

/**
 * Whether the schema itself refuses the property being left out. Read by parsing, not by
 * inspecting wrappers, so every construct zod has (now or later) answers the same way the server does.
 */
export function schemaRequires(prop: z.ZodType): boolean {
  return !prop.safeParse(undefined).success;
}

/** Thrown when a schema holds a property no control can edit while the schema requires it. */
export class UnformableFieldError extends Error {}

/**
 * The form fields of an object schema, in declaration order. A property no control can hold is
 * skipped when it is optional, and is an error when it is required: a form that silently lacks a
 * required field can never be submitted (issue 36: Country, State... had no Name).
 */
export function fieldsOf(schema: z.ZodObject): FieldSpec[] {
  const out: FieldSpec[] = [];
  for (const [name, prop] of Object.entries(schema.shape)) {
    const p = prop as z.ZodType;
    const u = unwrap(p);
    const k = kindOf(name, u.inner);
    const mustHave = schemaRequires(p);
    if (!k) {
      if (mustHave) throw new UnformableFieldError(`the form cannot show the required field "${name}"`);
      continue;
    }
    const textLike = k.kind === 'text' || k.kind === 'textarea' || k.kind === 'email' || k.kind === 'password' || k.kind === 'date';
    // Text must also refuse an empty input to be required: `phone: text()` may be left blank.
    const required = mustHave && !u.nullable && (!textLike || !p.safeParse('').success);
    out.push({ name, ...k, required, nullable: u.nullable, present: mustHave, defaultValue: u.hasDefault ? u.defaultValue : undefined });
  }
  return out;
}

/** A `list` field's line as its words: `refrigerated; tail-lift,` -> ['refrigerated', 'tail-lift']. */
export const listWords = (line: string): string[] =>
  line
    // Commas or semicolons, as the upload's skills column takes them.
    .split(/[;,]/)
    .map((w) => w.trim())
    .filter(Boolean);

/** A form holds strings and booleans; this is what an empty form shows. */
export type FormValues = Record<string, string | boolean>;

export function initialValues(fields: readonly FieldSpec[], record?: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = record ? record[f.name] : f.defaultValue;
    if (f.kind === 'boolean') values[f.name] = typeof v === 'boolean' ? v : f.name === 'is_active';
    else if (f.kind === 'password') values[f.name] = '';
    else if (f.kind === 'list') values[f.name] = Array.isArray(v) ? v.map(String).join(', ') : '';
    else values[f.name] = v == null ? '' : String(v);
  }
  return values;
}

/**
 * Form strings -> the typed body the schema expects. Empty inputs become `undefined` on create (so
 * defaults apply) and `null` for nullable fields on edit (so a value can be cleared).
 */
export function toBody(
  fields: readonly FieldSpec[],
  values: FormValues,
  mode: 'create' | 'edit',
  refFields: ReadonlySet<string>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = values[f.name];
    if (typeof raw === 'boolean') {
      body[f.name] = raw;
      continue;
    }
    const text = (raw ?? '').trim();
    const numeric = f.kind === 'number' || f.kind === 'integer' || refFields.has(f.name);
    if (f.kind === 'list') {
      body[f.name] = listWords(text);
      continue;
    }
    if (text === '') {
      if (f.kind === 'password') continue;
      if (f.nullable && (mode === 'edit' || f.present)) body[f.name] = null;
      else if (f.required || f.present) body[f.name] = numeric || f.kind === 'enum' ? undefined : raw;
      else if (numeric || f.kind === 'enum' || f.kind === 'date' || mode === 'create') body[f.name] = undefined;
      else body[f.name] = '';
      continue;
    }
    if (numeric) body[f.name] = Number(text.replace(',', '.'));
    else body[f.name] = raw;
  }
  return body;
}
