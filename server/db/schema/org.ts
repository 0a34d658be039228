import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { activeFlag, id, str, timestamps } from './columns';
import { company, user } from './people';

/** Where a company's parcels are collected from or returned to; a company may have several. */
export const companyDepotAddress = sqliteTable(
  'company_depot_address',
  {
    id: id(),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    name: str('name'),
    street_address: text('street_address').notNull(),
    additional_details: str('additional_details'),
    suburb: str('suburb'),
    state: str('state'),
    postcode: str('postcode'),
    contact_phone: str('contact_phone'),
    latitude: real('latitude'),
    longitude: real('longitude'),
    is_default: integer('is_default', { mode: 'boolean' }).notNull().default(false),
    ...activeFlag(),
    ...timestamps(),
  },
  (t) => [index('company_depot_address_company_idx').on(t.company_id)],
);

/**
 * The key a company's webhook calls are signed with (HMAC-SHA256). Kept as-is: verifying an HMAC
 * needs the key itself, so a one-way hash cannot be stored instead.
 */
export const companySecret = sqliteTable('company_secret', {
  company_id: integer('company_id')
    .primaryKey()
    .references(() => company.id),
  secret: text('secret').notNull(),
  ...timestamps(),
});

/** Secrets the server itself signs with (the pickup-point QR codes); made once, on first use. */
export const serverSecret = sqliteTable('server_secret', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  created_at: integer('created_at').notNull(),
});

/** A named set of permissions; a user holds their role's defaults plus those of their groups. */
export const permissionGroup = sqliteTable(
  'permission_group',
  {
    id: id(),
    name: text('name').notNull(),
    description: str('description'),
    /** JSON array of permission strings (shared/permissions.ts). */
    permissions: text('permissions').notNull().default('[]'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('permission_group_name_uq').on(t.name)],
);

export const userPermissionGroup = sqliteTable(
  'user_permission_group',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => user.id),
    group_id: integer('group_id')
      .notNull()
      .references(() => permissionGroup.id),
    created_at: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.group_id] }), index('user_permission_group_group_idx').on(t.group_id)],
);

/** A driver's support request; staff answer it and close it. */
export const supportTicket = sqliteTable(
  'support_ticket',
  {
    id: id(),
    driver_id: integer('driver_id')
      .notNull()
      .references(() => user.id),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    status: text('status').notNull().default('open'),
    response: str('response'),
    closed_at: integer('closed_at'),
    ...timestamps(),
  },
  (t) => [index('support_ticket_driver_idx').on(t.driver_id), index('support_ticket_status_idx').on(t.status)],
);
