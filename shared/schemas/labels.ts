import { z } from 'zod';

/** Issue 18: label and manifest downloads. */
export const LABEL_LAYOUTS = ['4x6', 'a4'] as const;
/**
 * Labels (one per piece, a parcel's `count` up to 99) one request may ask for: more are refused
 * with 400 before anything is drawn (security issue 30; 990 labels held the server 8-36 s).
 */
export const MAX_LABELS_PER_REQUEST = 500;
/** Pieces a parcel's labels number: its `count`, at least 1, at most 99. */
export const labelPieces = (count: number | null | undefined) => Math.max(1, Math.min(count ?? 1, 99));
const layout = z.enum(LABEL_LAYOUTS).default('4x6');

export const LabelQuery = z.object({ layout }).strict();
export const LabelsQuery = z
  .object({
    /** Comma-separated package ids (a selection, or the ids an upload answered), at most 500. */
    ids: z
      .string()
      .regex(/^\d+(,\d+)*$/, 'comma-separated package ids')
      .transform((s) => [...new Set(s.split(',').map(Number))])
      .pipe(z.array(z.number().int().positive()).min(1).max(500)),
    layout,
  })
  .strict();
export const ManifestQuery = z
  .object({
    driver: z.coerce.number().int().positive().optional(),
    route: z.coerce.number().int().positive().optional(),
  })
  .strict()
  .refine((q) => (q.driver != null) !== (q.route != null), { message: 'name a driver or a route (one of them)', path: ['driver'] });
