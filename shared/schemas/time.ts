import { z } from 'zod';
import { isTimeZone } from '../time/zone';

/** An IANA time zone name this runtime knows ("Australia/Sydney"); offsets like "+10:00" are refused (they ignore daylight saving). */
export const TimeZoneName = z.string().trim().min(1).max(64).refine(isTimeZone, 'an IANA time zone name such as Australia/Sydney');

/** `PUT warehouse/{id}/time-zone/`: the depot's own zone; null = the business's. */
export const DepotTimeZoneBody = z.object({ time_zone: TimeZoneName.nullable() }).strict();

export const DepotTimeZone = z.object({
  warehouse: z.number().int(),
  /** The depot's own zone, or null when it follows the business. */
  time_zone: z.string().nullable(),
  /** The zone its days, shifts and windows are in. */
  effective_time_zone: z.string(),
});
