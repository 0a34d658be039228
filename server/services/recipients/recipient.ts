import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { packageRecipient, pkg, recipientSettings } from '../../db/schema/index';
import { STOPS_AWAY_DEFAULT, STOPS_AWAY_MAX } from '../../../shared/schemas/recipients';
import type { PackageRow } from '../packages/shape';
import { randomText } from '../auth/tokens';

export type RecipientRow = typeof packageRecipient.$inferSelect;

/** 24 random bytes (192 bits), base64url: 32 characters, never derived from the parcel. */
export function newTrackToken(): string {
  return randomText(24);
}

const byPackage = (db: Db) =>
  db
    .select()
    .from(packageRecipient)
    .where(eq(packageRecipient.package_id, sql.placeholder('pkg')))
    .prepare();
const byToken = (db: Db) =>
  db
    .select()
    .from(packageRecipient)
    .where(eq(packageRecipient.token, sql.placeholder('token')))
    .prepare();

export async function recipientOf(db: Db, packageId: number): Promise<RecipientRow | undefined> {
  return await prepared(db, 'recipients.byPackage', byPackage).get({ pkg: packageId });
}

export async function recipientByToken(db: Db, token: string): Promise<RecipientRow | undefined> {
  return await prepared(db, 'recipients.byToken', byToken).get({ token });
}

/** The parcel's recipient row, created with a fresh token the first time anyone needs a link. Runs in the caller's transaction. */
export async function ensureRecipient(db: Db, now: number, packageId: number, known?: RecipientRow): Promise<RecipientRow> {
  const existing = known ?? (await recipientOf(db, packageId));
  if (existing) return existing;
  return await prepared(db, 'recipients.insert', recipientInsert).get({ pkg: packageId, token: newTrackToken(), now });
}

// Each parcel going out for delivery with a recipient to tell makes one: built once per database.
const recipientInsert = (db: Db) =>
  db
    .insert(packageRecipient)
    .values({
      package_id: sql.placeholder('pkg'),
      token: sql.placeholder('token'),
      created_at: sql.placeholder('now'),
      updated_at: sql.placeholder('now'),
    })
    .returning()
    .prepare();

/** The shipper's e-mail for the recipient (null clears it). */
export async function setRecipientEmail(db: Db, now: number, packageId: number, email: string | null): Promise<void> {
  await ensureRecipient(db, now, packageId);
  await db.update(packageRecipient).set({ email, updated_at: now }).where(eq(packageRecipient.package_id, packageId)).run();
}

const stopColumns = { id: pkg.id, company_id: pkg.company_id, customer_phone: pkg.customer_phone, attempts: pkg.attempts };
const onTheVan = and(eq(pkg.assigned_to_id, sql.placeholder('driver')), eq(pkg.status, 'out_for_delivery'));
const visitOrder = [sql`${pkg.sequence_no} is null`, asc(pkg.sequence_no), asc(pkg.id)];
const remainingOf = (db: Db) =>
  db
    .select(stopColumns)
    .from(pkg)
    .where(onTheVan)
    .orderBy(...visitOrder)
    .prepare();
// The first stops only, each with its company's "arriving soon" reach, in one query: looking the reach
// up company by company cost a query per shipper on the van (50 per deliver at 1M parcels, 20 at 100k).
const nextOf = (db: Db) =>
  db
    .select({ ...stopColumns, stops_away: recipientSettings.stops_away })
    .from(pkg)
    .leftJoin(recipientSettings, eq(recipientSettings.company_id, pkg.company_id))
    .where(onTheVan)
    .orderBy(...visitOrder)
    .limit(STOPS_AWAY_MAX)
    .prepare();

/** The driver's parcels still out for delivery, in the order they will be visited (route sequence, then id). */
export async function remainingStops(
  db: Db,
  driverId: number,
): Promise<{ id: number; company_id: number | null; customer_phone: string | null; attempts: number }[]> {
  return await prepared(db, 'recipients.remaining', remainingOf).all({ driver: driverId });
}

/** The driver's next stops (as many as any company's "arriving soon" can reach), each with its company's reach. */
export async function nextStops(
  db: Db,
  driverId: number,
): Promise<{ id: number; company_id: number | null; customer_phone: string | null; attempts: number; stopsAway: number }[]> {
  const rows = await prepared(db, 'recipients.next', nextOf).all({ driver: driverId });
  return rows.map(({ stops_away, ...r }) => ({ ...r, stopsAway: stops_away ?? STOPS_AWAY_DEFAULT }));
}

/** How many of its driver's stops come before this parcel's, or null when it is not out for delivery. */
export async function stopsBefore(db: Db, row: Pick<PackageRow, 'id' | 'status' | 'assigned_to_id'>): Promise<number | null> {
  if (row.status !== 'out_for_delivery' || row.assigned_to_id == null) return null;
  const index = (await remainingStops(db, row.assigned_to_id)).findIndex((r) => r.id === row.id);
  return index < 0 ? null : index;
}
