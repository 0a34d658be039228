import { eq } from 'drizzle-orm';
import {
  DEFAULT_PACKAGE_COLUMNS,
  PACKAGE_COLUMN_KEYS,
  SETTINGS_MAX_BYTES,
  SETTINGS_MAX_KEYS,
  type PackageColumn,
  type Settings,
} from '../../../shared/schemas/org';
import type { Role } from '../../../shared/roles';
import { iso } from '../../clock';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { company, user } from '../../db/schema/index';
import { ApiError, notFound } from '../../errors';
import { effectivePermissions } from '../auth/permissionGroups';

type UserRow = typeof user.$inferSelect;
const COLUMN_SET = new Set<string>(PACKAGE_COLUMN_KEYS);

function parseJson(text: string | null): unknown {
  if (text == null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function settingsOf(row: UserRow): Settings {
  const value = parseJson(row.settings);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Settings) : {};
}

/** The stored choice, minus any column the Package shape no longer has. */
export function packageColumnsOf(row: UserRow): PackageColumn[] {
  const value = parseJson(row.package_columns);
  const kept = Array.isArray(value) ? value.filter((c): c is PackageColumn => typeof c === 'string' && COLUMN_SET.has(c)) : [];
  return kept.length ? kept : [...DEFAULT_PACKAGE_COLUMNS];
}

export async function loadUser(db: Db, id: number): Promise<UserRow> {
  const row = await db.select().from(user).where(eq(user.id, id)).get();
  if (!row) throw notFound(`User ${id} not found`);
  return row;
}

export async function profileOf(db: Db, row: UserRow) {
  const co =
    row.company_id != null ? await db.select({ name: company.name }).from(company).where(eq(company.id, row.company_id)).get() : undefined;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role as Role,
    company: row.company_id,
    company_name: co?.name ?? null,
    profile_image: row.profile_image_file_id != null ? '/api/profile/image/' : null,
    settings: settingsOf(row),
    package_columns: packageColumnsOf(row),
    permissions: await effectivePermissions(db, row.id, row.role as Role),
    created_at: iso(row.created_at) ?? '',
  };
}

export async function updateProfile(deps: Deps, userId: number, changes: { name?: string; phone?: string }): Promise<UserRow> {
  const values = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  return await deps.db
    .update(user)
    .set({ ...values, updated_at: deps.clock.now() })
    .where(eq(user.id, userId))
    .returning()
    .get();
}

/** PATCH merges (a null value removes the key), PUT replaces; the result is bounded in keys and bytes. */
export async function updateSettings(deps: Deps, userId: number, incoming: Settings, replace: boolean): Promise<Settings> {
  const merged: Settings = replace ? {} : { ...settingsOf(await loadUser(deps.db, userId)) };
  for (const [key, value] of Object.entries(incoming)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  const json = JSON.stringify(merged);
  if (Object.keys(merged).length > SETTINGS_MAX_KEYS) {
    throw new ApiError(400, 'validation_error', `Settings hold at most ${SETTINGS_MAX_KEYS} keys`, [
      { path: 'settings', message: 'too many keys' },
    ]);
  }
  if (new TextEncoder().encode(json).byteLength > SETTINGS_MAX_BYTES) {
    throw new ApiError(413, 'payload_too_large', `Settings are limited to ${SETTINGS_MAX_BYTES / 1024} KiB`);
  }
  await deps.db.update(user).set({ settings: json, updated_at: deps.clock.now() }).where(eq(user.id, userId)).run();
  return merged;
}

export async function updatePackageColumns(deps: Deps, userId: number, columns: PackageColumn[] | null): Promise<PackageColumn[]> {
  await deps.db
    .update(user)
    .set({ package_columns: columns ? JSON.stringify(columns) : null, updated_at: deps.clock.now() })
    .where(eq(user.id, userId))
    .run();
  return columns ?? [...DEFAULT_PACKAGE_COLUMNS];
}
