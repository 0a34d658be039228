import { z } from 'zod';
import { idParam, requiredText, text } from './common';

/** ISO 4217 codes this runtime knows; a client without Intl.supportedValuesOf checks the shape only. */
const KNOWN_CURRENCIES: ReadonlySet<string> | null =
  typeof Intl.supportedValuesOf === 'function' ? new Set(Intl.supportedValuesOf('currency')) : null;

export const currencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'an ISO 4217 code of three letters, e.g. AUD')
  .refine((c) => KNOWN_CURRENCIES == null || KNOWN_CURRENCIES.has(c), 'not an ISO 4217 currency code');

const iso2 = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^([A-Z]{2})?$/, 'an ISO 3166-1 alpha-2 code of two letters, e.g. AU');
/** Postcodes differ by country (2000, SW1A 1AA, 110001): letters, digits, space and hyphen. */
export const pincodeCode = z
  .string()
  .trim()
  .toUpperCase()
  .min(1)
  .max(16)
  .regex(/^[A-Z0-9][A-Z0-9 -]*$/, 'letters, digits, spaces and hyphens only');
const name = requiredText(120);
const parent = idParam;

/**
 * Each group has one set of fields: updates take any of them (a PATCH changes only what it sends, so
 * no defaults here), creates require the name and the parent; the table supplies the other defaults.
 */
const base = { id: z.number().int(), is_active: z.boolean(), created_at: z.string() };

const CountryFields = z.object({ name, iso2, currency: currencyCode, is_active: z.boolean() });
export const CountryUpdate = CountryFields.partial();
export const CountryCreate = CountryFields.partial().required({ name: true, currency: true });
export const Country = z.object({ ...base, name: z.string(), iso2: z.string(), currency: z.string() });
export const CountryCurrency = z.object({ country: z.number().int(), name: z.string(), currency: z.string() });
export const CountryCurrencyList = z.object({ count: z.number().int(), results: z.array(CountryCurrency) });

const StateFields = z.object({ name, code: text(16), country: parent, is_active: z.boolean() });
export const StateUpdate = StateFields.partial();
export const StateCreate = StateFields.partial().required({ name: true, country: true });
export const State = z.object({
  ...base,
  name: z.string(),
  code: z.string(),
  country: z.number().int(),
  country_name: z.string().nullable(),
});

const CityFields = z.object({ name, state: parent, is_active: z.boolean() });
export const CityUpdate = CityFields.partial();
export const CityCreate = CityFields.partial().required({ name: true, state: true });
export const City = z.object({ ...base, name: z.string(), state: z.number().int(), state_name: z.string().nullable() });

const ZoneFields = z.object({ name, code: text(32), description: text(500), warehouse: parent.nullable(), is_active: z.boolean() });
export const ZoneUpdate = ZoneFields.partial();
export const ZoneCreate = ZoneFields.partial().required({ name: true });
export const Zone = z.object({
  ...base,
  name: z.string(),
  code: z.string(),
  description: z.string(),
  warehouse: z.number().int().nullable(),
  warehouse_name: z.string().nullable(),
});

const SuburbFields = z.object({
  name,
  state: parent,
  city: parent.nullable(),
  zone: parent.nullable(),
  postcode: z.union([pincodeCode, z.literal('')]),
  latitude: z.number().min(-90).max(90).nullable(),
  longitude: z.number().min(-180).max(180).nullable(),
  is_active: z.boolean(),
});
export const SuburbUpdate = SuburbFields.partial();
/** `state` may be left out when `city` is given: the city's state is used. */
export const SuburbCreate = SuburbFields.partial().required({ name: true });
export const Suburb = z.object({
  ...base,
  name: z.string(),
  state: z.number().int(),
  state_name: z.string().nullable(),
  city: z.number().int().nullable(),
  city_name: z.string().nullable(),
  zone: z.number().int().nullable(),
  zone_name: z.string().nullable(),
  postcode: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});

const AreaFields = z.object({ name, suburb: parent, is_active: z.boolean() });
export const AreaUpdate = AreaFields.partial();
export const AreaCreate = AreaFields.partial().required({ name: true, suburb: true });
export const Area = z.object({ ...base, name: z.string(), suburb: z.number().int(), suburb_name: z.string().nullable() });

const StreetFields = z.object({
  name,
  area: parent,
  is_active: z.boolean(),
  latitude: z.number().min(-90).max(90).nullable(),
  longitude: z.number().min(-180).max(180).nullable(),
});
export const StreetUpdate = StreetFields.partial();
export const StreetCreate = StreetFields.partial().required({ name: true, area: true });
export const Street = z.object({
  ...base,
  name: z.string(),
  area: z.number().int(),
  area_name: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});

const PincodeFields = z.object({ code: pincodeCode, suburb: parent, is_active: z.boolean() });
export const PincodeUpdate = PincodeFields.partial();
export const PincodeCreate = PincodeFields.partial().required({ code: true, suburb: true });
export const Pincode = z.object({
  ...base,
  code: z.string(),
  suburb: z.number().int(),
  suburb_name: z.string().nullable(),
  state: z.number().int().nullable(),
  state_name: z.string().nullable(),
  zone: z.number().int().nullable(),
  zone_name: z.string().nullable(),
});

/** Comma-separated ids in a query string: `?suburb=3,4`. */
export const idList = z
  .string()
  .trim()
  .max(2000)
  .transform((s, ctx) => {
    const parts = s
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const ids = parts.map(Number);
    if (!parts.length || ids.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
      ctx.addIssue({ code: 'custom', message: 'comma-separated positive integer ids' });
      return z.NEVER;
    }
    if (ids.length > 200) {
      ctx.addIssue({ code: 'custom', message: 'at most 200 ids' });
      return z.NEVER;
    }
    return [...new Set(ids)];
  });

export const AssignSuburbsBody = z.object({
  /** `null` takes the suburbs out of any zone. */
  zone: parent.nullable(),
  suburbs: z.array(parent).min(1).max(1000),
});

export const SuburbFilterQuery = z.object({ suburb: idList });
export const PincodeFilterQuery = z.object({ pincode: pincodeCode });

export const ZoneMatch = Zone.extend({ suburbs: z.array(z.number().int()) });
export const ZoneMatchList = z.object({ count: z.number().int(), results: z.array(ZoneMatch) });
export const AreaList = z.object({ count: z.number().int(), results: z.array(Area) });
export const PincodeList = z.object({ count: z.number().int(), results: z.array(Pincode) });
export const AssignSuburbsAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  count: z.number().int(),
  results: z.array(Suburb),
});

export const BulkUploadQuery = z.object({
  partial: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});
export const BulkUploadBody = z.object({ file: z.instanceof(File, { message: 'a CSV or .xlsx file is required' }) });
export const BULK_ROW_STATUSES = ['created', 'updated', 'rejected'] as const;
export const BulkRowReport = z.object({
  row: z.number().int(),
  status: z.enum(BULK_ROW_STATUSES),
  reason: z.string().nullable(),
  code: z.string().nullable(),
  id: z.number().int().nullable(),
});
export type BulkRowReport = z.infer<typeof BulkRowReport>;
export const BulkUploadAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  created: z.number().int(),
  updated: z.number().int(),
  rejected: z.number().int(),
  report: z.array(BulkRowReport),
});
