import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { DEFAULT_GST_RATE_BP } from '../../../shared/gst';
import type { BusinessProfileUpdate } from '../../../shared/schemas/business';
import { iso } from '../../clock';
import type { Db } from '../../db/client';
import { businessProfile } from '../../db/schema/index';
import { conflict } from '../../errors';

export type BusinessProfileRow = typeof businessProfile.$inferSelect;

/** The single profile row (id 1); before an admin saves one, empty texts and 10 % GST, prices GST-inclusive (as rate cards always were). */
export async function getBusinessProfile(db: Db): Promise<BusinessProfileRow> {
  return (
    (await db.select().from(businessProfile).where(eq(businessProfile.id, 1)).get()) ?? {
      id: 1,
      legal_name: '',
      trading_name: '',
      abn: '',
      address: '',
      email: '',
      phone: '',
      bank_account_name: '',
      bank_bsb: '',
      bank_account_number: '',
      payment_instructions: '',
      gst_rate_bp: DEFAULT_GST_RATE_BP,
      prices_include_gst: true,
      time_zone: null,
      updated_at: 0,
    }
  );
}

/** The name the courier trades under, as labels and manifests print it: trading name, else legal name, else ''. */
export async function courierName(db: Db): Promise<string> {
  const p = await getBusinessProfile(db);
  return p.trading_name.trim() || p.legal_name.trim();
}

/** `defaultZone`: the configured TIME_ZONE the business follows while its own is null. */
export function shapeBusinessProfile(row: BusinessProfileRow, defaultZone: string) {
  const { id: _id, updated_at, ...rest } = row;
  return { ...rest, updated_at: updated_at ? (iso(updated_at) ?? null) : null, time_zone_default: defaultZone };
}

/** Applies a partial update to the one row; answers before and after for the audit trail. */
export async function setBusinessProfile(db: Db, now: number, patch: z.infer<typeof BusinessProfileUpdate>) {
  // Wallet charges, statement totals and payments are the rate-card amounts; until charging adds GST on
  // top, GST-exclusive prices would print a payable total the ledger does not hold. Refused, not half-done.
  if (patch.prices_include_gst === false) {
    throw conflict('GST-exclusive prices are not supported yet: rate cards and wallet charges are GST-inclusive', {
      reason: 'gst_exclusive_unsupported',
    });
  }
  const before = await getBusinessProfile(db);
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<BusinessProfileRow>;
  const { id: _id, ...base } = before;
  const next = { ...base, ...changes, updated_at: now };
  await db
    .insert(businessProfile)
    .values({ id: 1, ...next })
    .onConflictDoUpdate({ target: businessProfile.id, set: next })
    .run();
  return { before, after: await getBusinessProfile(db) };
}
