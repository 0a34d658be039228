import { index, integer, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { activeFlag, archivable, id, str, timestamps } from './columns';

export const company = sqliteTable(
  'company',
  {
    id: id(),
    name: text('name').notNull(),
    email: str('email'),
    phone: str('phone'),
    address: str('address'),
    code: text('code').notNull(),
    abn: str('abn'),
    status: text('status').notNull().default('active'),
    billing_type: text('billing_type').notNull().default('prepaid'),
    currency: text('currency').notNull().default('AUD'),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('company_code_uq').on(t.code)],
);

/** Every login is a user: staff, drivers and company accounts (role `company`, with `company_id`). */
export const user = sqliteTable(
  'user',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: str('phone'),
    role: text('role').notNull(),
    company_id: integer('company_id').references(() => company.id),
    password_hash: text('password_hash'),
    settings: text('settings').notNull().default('{}'),
    /** JSON array of Package keys the user shows in the package table, in order; null = the default set. */
    package_columns: text('package_columns'),
    profile_image_file_id: integer('profile_image_file_id').references((): AnySQLiteColumn => storedFile.id),
    driving_license_file_id: integer('driving_license_file_id').references((): AnySQLiteColumn => storedFile.id),
    police_check_file_id: integer('police_check_file_id').references((): AnySQLiteColumn => storedFile.id),
    passport_file_id: integer('passport_file_id').references((): AnySQLiteColumn => storedFile.id),
    visa_file_id: integer('visa_file_id').references((): AnySQLiteColumn => storedFile.id),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('user_email_uq').on(t.email), index('user_role_idx').on(t.role), index('user_company_idx').on(t.company_id)],
);

export const authToken = sqliteTable(
  'auth_token',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => user.id),
    token_hash: text('token_hash').notNull(),
    kind: text('kind').notNull(),
    expires_at: integer('expires_at').notNull(),
    revoked_at: integer('revoked_at'),
    created_at: integer('created_at').notNull(),
    /** Last request made with the token, to the minute (idle expiry of staff sessions). */
    last_used_at: integer('last_used_at'),
    /** The X-Device-Id the app sent when logging in, so an admin can sign out one phone. */
    device_id: text('device_id'),
  },
  (t) => [uniqueIndex('auth_token_hash_uq').on(t.token_hash), index('auth_token_user_idx').on(t.user_id)],
);

export const passwordReset = sqliteTable(
  'password_reset',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => user.id),
    token_hash: text('token_hash').notNull(),
    expires_at: integer('expires_at').notNull(),
    used_at: integer('used_at'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('password_reset_hash_uq').on(t.token_hash)],
);

/**
 * Uploaded bytes (photos, signatures, documents). `client_id` is the id the device chose before it
 * had signal, so a delivery queued offline can name its photos and the upload stays idempotent.
 */
export const storedFile = sqliteTable(
  'stored_file',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    key: text('key').notNull(),
    client_id: text('client_id'),
    sha256: text('sha256').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    kind: text('kind').notNull(),
    owner_id: integer('owner_id')
      .notNull()
      .references(() => user.id),
    created_at: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('stored_file_client_uq').on(t.owner_id, t.client_id), index('stored_file_sha_idx').on(t.sha256)],
);
