import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { country } from '../../db/schema/index';
import { badRequest } from '../../errors';
import { DEFAULT_PHONE_COUNTRY, readPhone } from '../../../shared/phone';

/**
 * The business's country, for numbers written without a country code: the first live country of
 * its master data with an ISO code (a courier's geography is its own country), else Australia. No
 * profile column is needed: the geography already says where the business delivers.
 */
export async function businessCountry(db: Db): Promise<string> {
  const row = await db
    .select({ iso2: country.iso2 })
    .from(country)
    .where(and(isNull(country.deleted_at), eq(country.is_active, true), ne(country.iso2, '')))
    .orderBy(asc(country.id))
    .limit(1)
    .get();
  return row?.iso2 || DEFAULT_PHONE_COUNTRY;
}

/** Reads the business's country once per call site (an upload reads it once per file). */
export type PhoneReader = (typed: string) => ReturnType<typeof readPhone>;
export async function phoneReader(db: Db): Promise<PhoneReader> {
  const cc = await businessCountry(db);
  return (typed) => readPhone(typed, cc);
}

/**
 * The recipient's phone of a parcel's new values in international form; "not a phone" is a 400 in
 * the one error shape naming `customer_phone`. An empty phone is stored as null (no number).
 */
export async function normaliseRecipientPhone(db: Db, values: { customer_phone?: string | null }, read?: PhoneReader): Promise<void> {
  const typed = values.customer_phone;
  if (typed == null) return;
  if (typed.trim() === '') {
    values.customer_phone = null;
    return;
  }
  const reading = (read ?? (await phoneReader(db)))(typed);
  if (!reading.ok)
    throw badRequest(`The recipient's phone "${typed}" is ${reading.message}`, [{ path: 'customer_phone', message: reading.message }]);
  values.customer_phone = reading.e164;
}
