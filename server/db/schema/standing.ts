import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { activeFlag, archivable, id, str, timestamps } from './columns';
import { suburb } from './geo';
import { company, user } from './people';

/**
 * A standing delivery (issue 34, docs/decisions-cod.md): "Mon-Fri at 08:00 from A to B" for a business
 * shipper. `is_active` false = paused. Each day it runs creates one ordinary parcel.
 */
export const standingDelivery = sqliteTable(
  'standing_delivery',
  {
    id: id(),
    name: str('name'),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    /** ISO weekdays it runs on, as digits: "12345" = Monday to Friday. */
    weekdays: text('weekdays').notNull(),
    /** Local wall-clock time of the collection, HH:MM in the business's zone. */
    at_time: text('at_time').notNull(),
    starts_on: text('starts_on'),
    ends_on: text('ends_on'),
    shipper_name: str('shipper_name'),
    shipper_address: str('shipper_address'),
    customer_name: str('customer_name'),
    customer_address: str('customer_address'),
    customer_phone: str('customer_phone'),
    postcode: integer('postcode'),
    suburb_id: integer('suburb_id').references(() => suburb.id),
    description_of_goods: str('description_of_goods'),
    weight: real('weight'),
    created_by: integer('created_by').references(() => user.id),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [index('standing_delivery_company_idx').on(t.company_id)],
);

/** One row per rule per local day it ran: the claim that makes the job create each day's parcel once. */
export const standingRun = sqliteTable(
  'standing_run',
  {
    id: id(),
    rule_id: integer('rule_id')
      .notNull()
      .references(() => standingDelivery.id),
    day: text('day').notNull(),
    /** The instant of the rule's local time on that day (daylight saving applied). */
    due_at: integer('due_at').notNull(),
    package_id: integer('package_id'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('standing_run_rule_day_uq').on(t.rule_id, t.day)],
);

/** Public holidays the company lists: standing deliveries skip them. */
export const publicHoliday = sqliteTable(
  'public_holiday',
  {
    id: id(),
    day: text('day').notNull(),
    name: str('name'),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('public_holiday_day_uq').on(t.day)],
);
