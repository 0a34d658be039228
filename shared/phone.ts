import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** Where a number written without its country code is read from when the business's country is unknown. */
export const DEFAULT_PHONE_COUNTRY = 'AU';

export type PhoneReading = { ok: true; e164: string } | { ok: false; message: string };

/**
 * A recipient's phone as typed ("0417 123 456", "+61 417 123 456", "(02) 9876 5432") in the
 * international E.164 form SMS providers and `tel:` links need ("+61417123456"), read with the
 * business's country for numbers written without a country code. Anything the numbering plan of
 * that country (or of the country code given) does not allow is refused, so "not a phone" is never
 * stored as one.
 */
export function readPhone(typed: string, country: string = DEFAULT_PHONE_COUNTRY): PhoneReading {
  const text = typed.trim();
  const cc = (/^[A-Z]{2}$/.test(country.toUpperCase()) ? country.toUpperCase() : DEFAULT_PHONE_COUNTRY) as CountryCode;
  if (!/\d/.test(text)) return { ok: false, message: 'not a phone number' };
  let parsed;
  try {
    parsed = parsePhoneNumberFromString(text, { defaultCountry: cc, extract: false });
  } catch {
    parsed = undefined;
  }
  if (!parsed || !parsed.isValid()) return { ok: false, message: `not a valid phone number for ${parsed?.country ?? cc}` };
  return { ok: true, e164: parsed.number };
}
