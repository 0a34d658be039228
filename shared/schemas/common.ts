import { z } from 'zod';

/** Path ids are positive integers; anything else is a 404 before it reaches a handler. */
export const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const IdParams = z.object({ id: idParam });

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;

export const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  search: z.string().max(200).optional(),
  ordering: z.string().max(200).optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Body of archive and restore calls (DESIGN.md section 3). */
export const ArchiveBody = z.object({
  deleted: z.array(idParam).min(1).max(1000),
});
export type ArchiveBody = z.infer<typeof ArchiveBody>;

/** The restore envelope of spec 4.6. */
export function restoreEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.null(),
    previous: z.null(),
    results: z.object({ success: z.boolean(), data: z.array(item) }),
  });
}

export const StatusChangeBody = z.object({ is_active: z.boolean() });

export const SuccessMessage = z.object({ success: z.boolean(), message: z.string() });

/** Text fields: trimmed, bounded so a hostile client cannot store megabytes in a name. */
export const text = (max = 255) => z.string().trim().max(max);
export const requiredText = (max = 255) => z.string().trim().min(1).max(max);
export const email = () => z.string().trim().toLowerCase().max(254).pipe(z.email());
export const phone = () =>
  z
    .string()
    .trim()
    .max(32)
    .regex(/^[0-9+()\-\s.]*$/, 'digits, spaces and + ( ) - . only');
export const latitude = z.number().min(-90).max(90);
export const longitude = z.number().min(-180).max(180);
/** Device-side time of an action: ISO 8601 with offset. */
export const occurredAt = z.iso.datetime({ offset: true });

/**
 * The update form of a create schema: every field optional and no defaults, so a PATCH that omits
 * a field never resets it to its create-time default.
 */
export function updateOf<T extends z.ZodRawShape>(
  schema: z.ZodObject<T>,
): z.ZodObject<{ [K in keyof T]: z.ZodOptional<z.ZodType<z.output<T[K]>>> }> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape as z.ZodRawShape)) {
    const base = field instanceof z.ZodDefault ? (field.removeDefault() as z.ZodType) : (field as z.ZodType);
    shape[key] = base.optional();
  }
  return z.object(shape) as unknown as z.ZodObject<{ [K in keyof T]: z.ZodOptional<z.ZodType<z.output<T[K]>>> }>;
}
