import { z } from 'zod';
import { CHOICE_KINDS, CODE_PATTERN, DOOR_OUTCOMES, ID_TYPES, MAX_DOOR_PHOTOS } from '../door';
import { text } from './common';

/** A full set of proof requirements (a company's default; shared/door.ts reads them). */
export const ProofRequirementsSchema = z
  .object({
    signature: z.boolean().default(false),
    photos: z.number().int().min(0).max(MAX_DOOR_PHOTOS).default(0),
    recipient_name: z.boolean().default(false),
    scan: z.boolean().default(false),
    min_age: z.number().int().min(1).max(99).nullable().default(null),
    code: z.boolean().default(false),
  })
  .strict();

/** What a parcel adds to its company's default (create/update); null clears it. Fields only ever raise. */
export const ParcelRequirementsSchema = z
  .object({
    signature: z.boolean().optional(),
    photos: z.number().int().min(0).max(MAX_DOOR_PHOTOS).optional(),
    recipient_name: z.boolean().optional(),
    scan: z.boolean().optional(),
    min_age: z.number().int().min(1).max(99).nullable().optional(),
    code: z.boolean().optional(),
  })
  .strict();

export const CompanyProofRules = z.object({ company: z.number().int(), requirements: ProofRequirementsSchema });

/** The door fields of a driver's delivery (shared/schemas/delivery.ts `DeliverFields`). */
export const DoorFields = {
  outcome: z.enum(DOOR_OUTCOMES).optional(),
  door_scan: z.string().trim().min(1).max(128).optional(),
  age: z
    .object({ dob: z.iso.date().optional(), id_type: z.enum(ID_TYPES).optional() })
    .strict()
    .optional(),
  code: z.string().trim().regex(CODE_PATTERN, 'six digits').optional(),
};

/** The recipient's choice on the tracking page; `none` withdraws it. */
export const LeaveChoiceBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('safe_place'), note: text(300).pipe(z.string().min(1, 'say where')) }).strict(),
  z
    .object({
      kind: z.literal('neighbour'),
      neighbour: text(200).pipe(z.string().min(1, 'name the neighbour')),
      note: text(300).optional(),
    })
    .strict(),
  z.object({ kind: z.literal('collect_at_depot') }).strict(),
  z.object({ kind: z.literal('none') }).strict(),
]);
export type LeaveChoiceBody = z.infer<typeof LeaveChoiceBody>;

export const RecipientChoiceSchema = z.object({
  kind: z.enum(CHOICE_KINDS),
  note: z.string().nullable(),
  neighbour: z.string().nullable(),
  at: z.string(),
  late: z.boolean(),
});

const CodeHashSchema = z.object({ hash: z.string(), salt: z.string(), iterations: z.number().int() });
/** The phone's copy: the parcel's effective requirements, the code's salted hash (never the code), the recipient's choice. */
export const DoorInfoSchema = z.object({
  requirements: ProofRequirementsSchema,
  code: CodeHashSchema.nullable(),
  choice: RecipientChoiceSchema.nullable(),
  time_zone: z.string(),
});

export const DoorCheckedSchema = z.object({
  outcome: z.enum(DOOR_OUTCOMES),
  requirements: ProofRequirementsSchema,
  signature: z.boolean(),
  photos: z.number().int(),
  recipient_name: z.boolean(),
  door_scan: z.boolean(),
  age: z.object({ years: z.number().int().nullable(), id_type: z.enum(ID_TYPES).nullable(), min: z.number().int() }).nullable(),
  code: z.boolean(),
  choice: RecipientChoiceSchema.nullable(),
});
