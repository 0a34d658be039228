import { z } from 'zod';
import { ALL_PERMISSIONS, type Permission } from '../permissions';
import { ROLES } from '../roles';
import { password } from './auth';
import { email, idParam, latitude, longitude, phone, requiredText, text, updateOf } from './common';
import { Package } from './package';
import { companyCode } from './people';

// ---- Company registration and depot addresses -------------------------------------------------

export const RegisterCompanyBody = z
  .object({
    name: requiredText(200),
    email: email(),
    phone: phone().default(''),
    address: text(500).default(''),
    abn: text(32).default(''),
    /** Left out, the server derives one from the name. */
    code: companyCode().optional(),
    /** Name on the company's login; defaults to the company name. */
    contact_name: requiredText(200).optional(),
    password: password(),
  })
  .strict();
/** The same whether the e-mail was new or already had an account: nothing in it tells the two apart. */
export const RegisterCompanyResponse = z.object({
  success: z.boolean(),
  message: z.string(),
});

export const DepotAddress = z.object({
  id: z.number().int(),
  company: z.number().int(),
  name: z.string(),
  street_address: z.string(),
  additional_details: z.string(),
  suburb: z.string(),
  state: z.string(),
  postcode: z.string(),
  contact_phone: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  is_default: z.boolean(),
  is_active: z.boolean(),
  created_at: z.string(),
});
export const DepotAddressCreate = z.object({
  /** Staff name the company; a company login always writes its own. */
  company: idParam.optional(),
  name: text(100).default(''),
  street_address: requiredText(300),
  additional_details: text(300).default(''),
  suburb: text(100).default(''),
  state: text(100).default(''),
  postcode: text(16).default(''),
  contact_phone: phone().default(''),
  latitude: latitude.nullable().optional(),
  longitude: longitude.nullable().optional(),
  is_default: z.boolean().default(false),
  is_active: z.boolean().default(true),
});
export const DepotAddressUpdate = updateOf(DepotAddressCreate);

// ---- Webhook secret -----------------------------------------------------------------------------

export const GenerateKeyBody = z.object({ company: idParam.optional() }).strict();
export const GenerateKeyResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  company: z.number().int(),
  /** Shown once: the server never answers it again; generate a new one if it is lost. */
  secret_key: z.string(),
  regenerated: z.boolean(),
  created_at: z.string(),
});

// ---- Pickup point QR ----------------------------------------------------------------------------

export const PickupQrQuery = z.object({
  format: z.enum(['png', 'svg']).default('png'),
  /** Image width in pixels (PNG) or SVG user units. */
  size: z.coerce.number().int().min(64).max(2048).default(320),
});

// ---- Permission groups --------------------------------------------------------------------------

const permission = z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]]);
export const PermissionGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(permission),
  users: z.array(z.number().int()),
  created_at: z.string(),
});
export const PermissionGroupCreate = z.object({
  name: requiredText(100),
  description: text(500).default(''),
  permissions: z.array(permission).max(ALL_PERMISSIONS.length).default([]),
});
export const PermissionGroupUpdate = updateOf(PermissionGroupCreate);
export const UserGroupsBody = z.object({ groups: z.array(idParam).max(100) }).strict();
export const UserGroupsResponse = z.object({
  user: z.number().int(),
  groups: z.array(z.object({ id: z.number().int(), name: z.string() })),
  permissions: z.array(permission),
});

// ---- Profile ------------------------------------------------------------------------------------

export const PACKAGE_COLUMN_KEYS = Package.keyof().options;
export type PackageColumn = (typeof PACKAGE_COLUMN_KEYS)[number];
export const DEFAULT_PACKAGE_COLUMNS: readonly PackageColumn[] = [
  'hawb',
  'customer_name',
  'customer_address',
  'postcode',
  'company_name',
  'status',
  'assigned_to',
  'created_at',
];

const settingScalar = z.union([z.string().max(1000), z.number().finite(), z.boolean(), z.null()]);
const settingValue = z.union([
  settingScalar,
  z.array(z.union([z.string().max(200), z.number().finite(), z.boolean()])).max(100),
  z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), settingScalar).refine((o) => Object.keys(o).length <= 50, 'at most 50 entries'),
]);
export const SETTINGS_MAX_BYTES = 16 * 1024;
export const SETTINGS_MAX_KEYS = 100;
/** Keys are short identifiers; a null value removes the key. */
export const SettingsBody = z
  .record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - (1-64)'), settingValue)
  .refine((o) => Object.keys(o).length <= SETTINGS_MAX_KEYS, `at most ${SETTINGS_MAX_KEYS} keys`);
export type Settings = z.infer<typeof SettingsBody>;

export const PackageColumnsBody = z
  .object({
    /** null goes back to the default set. */
    columns: z
      .array(z.enum(PACKAGE_COLUMN_KEYS))
      .min(1)
      .max(PACKAGE_COLUMN_KEYS.length)
      .refine((a) => new Set(a).size === a.length, 'each column once')
      .nullable(),
  })
  .strict();

export const ProfileUpdateBody = z.object({ name: requiredText(200).optional(), phone: phone().optional() }).strict();

export const Profile = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(ROLES),
  company: z.number().int().nullable(),
  company_name: z.string().nullable(),
  profile_image: z.string().nullable(),
  settings: SettingsBody,
  package_columns: z.array(z.enum(PACKAGE_COLUMN_KEYS)),
  permissions: z.array(permission),
  created_at: z.string(),
});

// ---- Driver support -----------------------------------------------------------------------------

export const SUPPORT_STATUSES = ['open', 'closed'] as const;
export const SupportTicket = z.object({
  id: z.number().int(),
  driver: z.number().int(),
  driver_name: z.string(),
  subject: z.string(),
  message: z.string(),
  status: z.enum(SUPPORT_STATUSES),
  response: z.string(),
  closed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const SupportTicketCreate = z.object({
  /** Staff raising a ticket for a driver name them; a driver's own tickets are theirs. */
  driver: idParam.optional(),
  subject: requiredText(200),
  message: requiredText(5000),
});
export const SupportTicketUpdate = z
  .object({
    subject: requiredText(200).optional(),
    message: requiredText(5000).optional(),
    status: z.enum(SUPPORT_STATUSES).optional(),
    /** Staff's answer to the driver. */
    response: text(5000).optional(),
  })
  .strict();

// ---- Driver lists -------------------------------------------------------------------------------

export const ExcludeDriversQuery = z.object({
  exclude: z
    .string()
    .max(2000)
    .regex(/^\s*(\d+\s*(,\s*\d+\s*)*)?$/, 'comma-separated driver ids')
    .optional(),
});
export const CompanyDriverQuery = z.object({ company: idParam.optional() });
