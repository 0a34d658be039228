/**
 * Forms from schemas cannot lose a field (issue 36): for the create and the edit form of every
 * resource the admin declares, each field its schema requires is on the form, an empty submission
 * marks only fields the form shows, and a form filled in with ordinary values passes the very schema
 * the server validates with.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RESOURCES, REFS } from '../../client/admin/resource/declarations';
import { fieldsOf, initialValues, schemaRequires, toBody, type FieldSpec, type FormValues } from '../../client/admin/resource/zodFields';
import type { ResourceDecl } from '../../client/admin/resource/types';

// Ordinary things typed into text boxes: names, codes, a postcode, a phone, weekdays (Mon-Fri as 12345), a time.
const TEXTS = ['Sample name', 'AU', 'AUD', '2000', '0412 345 678', 'SYD1', 'Sample', '12345', '08:00'];

function candidates(f: FieldSpec): (string | boolean)[] {
  switch (f.kind) {
    case 'boolean':
      return [true];
    case 'email':
      return ['office@example.com'];
    case 'password':
      return ['correct-horse-battery'];
    case 'date':
      return ['2026-03-02'];
    case 'enum':
      return [...(f.options ?? [])];
    case 'integer':
      return [String(Math.max(1, f.min ?? 1))];
    case 'number':
      return [String(Math.max(1, f.min ?? 1))];
    default:
      return TEXTS;
  }
}

function formFields(decl: ResourceDecl, mode: 'create' | 'edit'): { schema: z.ZodObject; fields: FieldSpec[]; refs: Set<string> } {
  const schema = (mode === 'edit' ? (decl.update ?? decl.create!.partial()) : decl.create!) as z.ZodObject;
  const fields = fieldsOf(schema).filter((f) => !decl.omit?.includes(f.name) && (mode === 'create' || !decl.createOnly?.includes(f.name)));
  const refs = new Set(fields.filter((f) => decl.refs?.[f.name] || (f.kind === 'integer' && REFS[f.name])).map((f) => f.name));
  return { schema, fields, refs };
}

/** A value for each field that its own property schema accepts, as a person would type it. */
function fill(decl: ResourceDecl, mode: 'create' | 'edit'): FormValues {
  const { schema, fields, refs } = formFields(decl, mode);
  const values: FormValues = {};
  for (const f of fields) {
    const prop = schema.shape[f.name] as z.ZodType;
    const ok = candidates(f).find((c) => prop.safeParse(toBody([f], { [f.name]: c }, mode, refs)[f.name]).success);
    if (ok === undefined) throw new Error(`${decl.name}.${f.name}: no ordinary value fits`);
    values[f.name] = ok;
  }
  return values;
}

const withCreate = RESOURCES.filter((d) => d.create);

describe('resource forms built from zod schemas', () => {
  it('covers every resource the admin can create', () => {
    expect(withCreate.map((d) => d.name)).toEqual(
      expect.arrayContaining(['country', 'state', 'city', 'suburb', 'zone', 'area', 'street', 'pincode']),
    );
  });

  for (const decl of withCreate) {
    for (const mode of ['create', 'edit'] as const) {
      it(`${decl.name} ${mode}: every required field is on the form and an ordinary filling is accepted`, () => {
        const { schema, fields, refs } = formFields(decl, mode);
        const shown = new Set(fields.map((f) => f.name));
        const required = Object.entries(schema.shape)
          .filter(([, p]) => schemaRequires(p as z.ZodType))
          .map(([k]) => k);
        for (const name of required) expect(shown.has(name), `${decl.name} ${mode} lacks required field ${name}`).toBe(true);
        // A field that must be filled in is marked required on the control too (text that may be blank is sent as '').
        for (const f of fields) {
          const prop = schema.shape[f.name] as z.ZodType;
          if (required.includes(f.name) && f.kind !== 'boolean' && !f.nullable && !prop.safeParse('').success)
            expect(f.required, `${f.name} marked required`).toBe(true);
        }

        // An empty form's errors all land on fields the form shows ("Please correct the marked fields" with nothing marked).
        const empty = schema.safeParse(toBody(fields, initialValues(fields), mode, refs));
        if (!empty.success)
          for (const issue of empty.error.issues)
            expect(shown.has(String(issue.path[0])), `${decl.name}: error on ${String(issue.path[0])}`).toBe(true);
        if (mode === 'create') expect(empty.success).toBe(required.length === 0);

        const body = toBody(fields, fill(decl, mode), mode, refs);
        const parsed = schema.safeParse(body);
        expect(parsed.success ? [] : parsed.error.issues, `${decl.name} ${mode}`).toEqual([]);
      });
    }

    it(`${decl.name}: an edit form opened on a record sends back a body the update schema accepts`, () => {
      const create = formFields(decl, 'create');
      const record = create.schema.parse(toBody(create.fields, fill(decl, 'create'), 'create', create.refs)) as Record<string, unknown>;
      const edit = formFields(decl, 'edit');
      const parsed = edit.schema.safeParse(toBody(edit.fields, initialValues(edit.fields, record), 'edit', edit.refs));
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    });
  }
});

describe('zod constructs the form builder understands', () => {
  const Fields = z.object({
    name: z.string().trim().min(1),
    code: z.string().trim().max(16),
    parent: z.coerce.number().int().positive(),
    kind: z.enum(['a', 'b']),
    flag: z.boolean(),
  });
  it('.partial().required() keeps the required fields required', () => {
    const fields = fieldsOf(Fields.partial().required({ name: true, parent: true }));
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(Object.keys(byName)).toEqual(['name', 'code', 'parent', 'kind', 'flag']);
    expect(byName.name!.required).toBe(true);
    expect(byName.parent).toMatchObject({ kind: 'integer', required: true });
    expect(byName.code!.required).toBe(false);
    expect(byName.kind!.required).toBe(false);
  });
  it('optional, nullable, default, prefault, catch, readonly, refinements, pipes, transforms and literal unions', () => {
    const s = z.object({
      a: z
        .string()
        .trim()
        .regex(/^[A-Z]{3}$/)
        .refine((v) => v !== 'XXX'),
      b: z.string().optional().nullable(),
      c: z.number().int().default(5),
      d: z.enum(['x', 'y']).prefault('x'),
      e: z.string().min(1).catch('z'),
      f: z.string().min(1).readonly(),
      g: z.string().trim().pipe(z.email()),
      h: z
        .string()
        .min(1)
        .transform((v) => v.toUpperCase()),
      i: z.union([z.literal('morning'), z.literal('evening')]),
      j: z.union([z.string().regex(/^\d{4}$/), z.literal('')]),
    });
    const f = Object.fromEntries(fieldsOf(s).map((x) => [x.name, x]));
    expect(Object.keys(f)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    expect(f.a).toMatchObject({ kind: 'text', required: true });
    expect(f.b).toMatchObject({ kind: 'text', required: false, nullable: true });
    expect(f.c).toMatchObject({ kind: 'integer', required: false, defaultValue: 5 });
    expect(f.d).toMatchObject({ kind: 'enum', required: false, defaultValue: 'x' });
    expect(f.e).toMatchObject({ kind: 'text', required: false });
    expect(f.f).toMatchObject({ kind: 'text', required: true });
    expect(f.g).toMatchObject({ kind: 'email', required: true });
    expect(f.h).toMatchObject({ kind: 'text', required: true });
    expect(f.i).toMatchObject({ kind: 'enum', options: ['morning', 'evening'], required: true });
    expect(f.j).toMatchObject({ kind: 'text', required: false });
  });
  it('refuses to build a form that would silently lack a required field', () => {
    // A list of words is one text line (a van's skills); a list of records has no control.
    const stops = z.array(z.object({ at: z.string() }));
    expect(() => fieldsOf(z.object({ stops }))).toThrow(/stops/);
    expect(fieldsOf(z.object({ stops: stops.optional() }))).toEqual([]);
    expect(fieldsOf(z.object({ tags: z.array(z.string()) }))[0]).toMatchObject({ name: 'tags', kind: 'list' });
  });
});
