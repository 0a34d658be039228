import { DoorCheckedSchema, ProofRequirementsSchema, RecipientChoiceSchema } from './door';
import { z } from 'zod';
import { PACKAGE_STATUSES } from '../lifecycle';
import { idParam, text } from './common';

/** What a recipient hears about, in the order a day goes. */
export const RECIPIENT_EVENTS = ['out_for_delivery', 'arriving_soon', 'delivered', 'failed', 'returned_to_sender'] as const;
export type RecipientEvent = (typeof RECIPIENT_EVENTS)[number];
export const MESSAGE_CHANNELS = ['email', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** Placeholders a template may use; anything else in braces is left as written. */
export const TEMPLATE_PLACEHOLDERS = ['company', 'hawb', 'eta', 'stops', 'reason', 'next_step', 'link'] as const;

export const RecipientSettings = z.object({
  company: z.number().int(),
  events: z.array(z.enum(RECIPIENT_EVENTS)),
  channels: z.array(z.enum(MESSAGE_CHANNELS)),
  sender_name: z.string(),
  templates: z.record(z.enum(RECIPIENT_EVENTS), z.string()),
  logo_file: z.number().int().nullable(),
  stops_away: z.number().int(),
  reschedule_days: z.number().int(),
});
export type RecipientSettings = z.infer<typeof RecipientSettings>;

export const RecipientSettingsQuery = z.object({ company: idParam.optional() });
/** "Arriving soon" reaches at most this many stops ahead: the deliver reads no further along a driver's route. */
export const STOPS_AWAY_MAX = 20;
/** A company without settings tells the next two stops. */
export const STOPS_AWAY_DEFAULT = 2;
export const RecipientSettingsUpdate = z
  .object({
    events: z.array(z.enum(RECIPIENT_EVENTS)).max(RECIPIENT_EVENTS.length).optional(),
    channels: z.array(z.enum(MESSAGE_CHANNELS)).max(2).optional(),
    sender_name: text(80)
      .regex(/^[^\r\n"<>]*$/, 'no quotes, angle brackets or line breaks')
      .nullable()
      .optional(),
    templates: z.partialRecord(z.enum(RECIPIENT_EVENTS), text(480)).optional(),
    logo_file: idParam.nullable().optional(),
    stops_away: z.number().int().min(0).max(STOPS_AWAY_MAX).optional(),
    reschedule_days: z.number().int().min(1).max(30).optional(),
  })
  .strict();

/** 24 random bytes in base64url: 32 characters. */
export const TrackToken = z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'not a tracking link');
export const TrackTokenParams = z.object({ token: TrackToken });
export const TrackFileParams = z.object({ token: TrackToken, file_id: idParam });

export const TrackingLink = z.object({
  package: z.number().int(),
  url: z.string().nullable(),
  token: z.string(),
  warning: z.string().nullable(),
});

const FileLink = z.object({ url: z.string(), mime: z.string() });

/** The tracking page of one parcel, reached by its unguessable link: only that parcel, only what its recipient may see. */
export const RecipientView = z.object({
  hawb: z.string(),
  status: z.enum(PACKAGE_STATUSES),
  status_label: z.string(),
  suburb: z.string().nullable(),
  delivery_date: z.string().nullable(),
  timeline: z.array(z.object({ status: z.enum(PACKAGE_STATUSES), label: z.string(), time: z.string() })),
  eta: z.object({ from: z.string(), to: z.string() }).nullable(),
  /** The parcel's depot's IANA zone (issue 31): the page shows every time as that wall clock, as its messages do. */
  time_zone: z.string(),
  stops_before: z.number().int().nullable(),
  /** Only on the day of delivery, while the parcel is out and within the company's last stops. */
  driver_position: z.object({ latitude: z.number(), longitude: z.number(), at: z.string() }).nullable(),
  proof: z
    .object({
      delivered_at: z.string().nullable(),
      recipient_name: z.string().nullable(),
      photos: z.array(FileLink),
      signature: FileLink.nullable(),
    })
    .nullable(),
  failure: z.object({ reason: z.string().nullable(), next_step: z.string() }).nullable(),
  company: z.object({ name: z.string(), logo: FileLink.nullable() }),
  instructions: z.string().nullable(),
  can_leave_instructions: z.boolean(),
  reschedule: z.object({ earliest: z.string(), latest: z.string() }).nullable(),
  rating: z.object({ rating: z.number().int(), comment: z.string().nullable() }).nullable(),
  can_rate: z.boolean(),
  opted_out: z.boolean(),
  /** At the door (issue 34): what the driver will check, the recipient's choice (late when made after it left), what was checked. */
  door: z
    .object({
      requirements: ProofRequirementsSchema,
      choice: RecipientChoiceSchema.nullable(),
      checked: DoorCheckedSchema.nullable(),
      can_choose: z.boolean(),
    })
    .optional(),
});
export type RecipientView = z.infer<typeof RecipientView>;

export const InstructionsBody = z.object({ instructions: text(500) }).strict();
export const RescheduleBody = z.object({ date: z.iso.date() }).strict();
export const RatingBody = z.object({ rating: z.number().int().min(1).max(5), comment: text(1000).nullable().optional() }).strict();

export const DriverRatingsQuery = z.object({ company: idParam.optional() });
export const DriverRatings = z.object({
  results: z.array(
    z.object({
      driver: z.number().int().nullable(),
      driver_name: z.string().nullable(),
      count: z.number().int(),
      average: z.number(),
      recent: z.array(z.object({ rating: z.number().int(), comment: z.string().nullable(), hawb: z.string(), at: z.string() })),
    }),
  ),
});

/** Issue 36: the office's and the shipper's view of recipient messages, per parcel or per company. */
export const MESSAGE_LOG_STATUSES = ['pending', 'sending', 'sent', 'logged', 'dead', 'skipped', 'uncertain'] as const;
export const MessageLogQuery = z.object({
  package: idParam.optional(),
  company: idParam.optional(),
  /** `failed` = gave up (dead) or unsure (uncertain). */
  status: z.enum([...MESSAGE_LOG_STATUSES, 'failed']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export const MessageLogEntry = z.object({
  id: z.number().int(),
  package: z.number().int().nullable(),
  hawb: z.string().nullable(),
  company: z.number().int().nullable(),
  channel: z.string(),
  to: z.string(),
  kind: z.string(),
  subject: z.string().nullable(),
  status: z.string(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export const MessageLog = z.object({ count: z.number().int(), results: z.array(MessageLogEntry) });
