import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  deliveryRating,
  deliveryRecordHistory,
  packageEvent,
  packageHistory,
  packageHistoryRow,
  packageHistoryToken,
  packagePhoto,
  packageRecipient,
  refusedDelivery,
  refusedDeliveryFile,
  storedFile,
  user,
} from '../../db/schema/index';
import type { StoredFile } from '../files/store';
import { findPackage } from '../packages/lifecycle';
import type { PackageRow } from '../packages/shape';
import { coldDeliveryAttempt, coldPkg, historyRow, historyRowsOf, type HistoryRow } from './read';

/**
 * A cold parcel's rows in the shapes of their hot tables, so the code that shapes an answer from
 * hot rows shapes the same answer from cold ones (docs/decisions-data-layer.md, "Cold storage").
 * Rows kept as JSON in `package_history_row` come back as they were written: the row objects the
 * hot query answered, whichever engine wrote them.
 */

/** A cold row is a hot row plus when it moved. */
export const isCold = (row: PackageRow): row is HistoryRow => 'moved_at' in row;

/** The parcel `id` on either side, hot first (callers check scope as for a hot one). */
export async function anyPackage(db: Db, id: number): Promise<PackageRow | undefined> {
  return (await findPackage(db, id)) ?? (await historyRow(db, id));
}

/** The cold parcel a tracking-link token names, with its recipient row as it was kept (the token's own index finds it). */
export async function keptRecipientByToken(
  db: Db,
  token: string,
): Promise<{ recipient: typeof packageRecipient.$inferSelect; parcel: HistoryRow } | undefined> {
  const link = await db
    .select({ id: packageHistoryToken.package_id })
    .from(packageHistoryToken)
    .where(eq(packageHistoryToken.token, token))
    .get();
  const parcel = link ? await historyRow(db, link.id) : undefined;
  const recipient = parcel ? (await historyRowsOf<typeof packageRecipient.$inferSelect>(db, parcel.id, 'package_recipient'))[0] : undefined;
  return parcel && recipient ? { recipient, parcel } : undefined;
}

/** The recipient's rating of a cold parcel, if they gave one. */
export async function keptRating(db: Db, packageId: number): Promise<RatingRow | undefined> {
  return (await historyRowsOf<RatingRow>(db, packageId, 'delivery_rating'))[0];
}

export const keptEvents = (db: Db, packageId: number) => historyRowsOf<typeof packageEvent.$inferSelect>(db, packageId, 'package_event');

export async function keptDeliveryRecord(db: Db, packageId: number) {
  return await db.select().from(deliveryRecordHistory).where(eq(deliveryRecordHistory.package_id, packageId)).get();
}

/** Proof photos of cold parcels with their files (the files themselves never move). */
export async function keptPhotos(db: Db, packageIds: readonly number[]): Promise<{ p: typeof packagePhoto.$inferSelect; f: StoredFile }[]> {
  if (!packageIds.length) return [];
  const rows = await db
    .select({ data: packageHistoryRow.data })
    .from(packageHistoryRow)
    .where(and(inArray(packageHistoryRow.package_id, [...packageIds]), eq(packageHistoryRow.source, 'package_photo')))
    .all();
  const photos = rows.map((r) => JSON.parse(r.data) as typeof packagePhoto.$inferSelect);
  const files = await filesById(
    db,
    photos.map((p) => p.file_id),
  );
  return photos.flatMap((p) => {
    const f = files.get(p.file_id);
    return f ? [{ p, f }] : [];
  });
}

async function filesById(db: Db, ids: number[]): Promise<Map<number, StoredFile>> {
  const unique = [...new Set(ids)];
  return new Map(
    unique.length ? (await db.select().from(storedFile).where(inArray(storedFile.id, unique)).all()).map((f) => [f.id, f]) : [],
  );
}

/**
 * Failed attempts of cold parcels under a filter written over `deliveryAttempt` and `pkg` (it reads
 * the cold tables under those names), newest first, as `attemptsWhere` reads hot ones.
 */
export async function keptAttemptRowsWhere(db: Db, where: SQL | undefined, limit = 500) {
  return await db
    .select({ a: coldDeliveryAttempt, hawb: coldPkg.hawb, driver_name: user.name })
    .from(coldDeliveryAttempt)
    .innerJoin(coldPkg, eq(coldPkg.id, coldDeliveryAttempt.package_id))
    .leftJoin(user, eq(user.id, coldDeliveryAttempt.driver_id))
    .where(where)
    .orderBy(desc(coldDeliveryAttempt.id))
    .limit(limit)
    .all();
}

/** Failed attempts of one cold parcel. */
export const keptAttemptRows = (db: Db, packageId: number) => keptAttemptRowsWhere(db, eq(coldDeliveryAttempt.package_id, packageId));

/** How many failed attempts of cold parcels match a filter written over `deliveryAttempt` and `pkg`. */
export async function countKeptAttempts(db: Db, where: SQL | undefined): Promise<number> {
  return (
    (
      await db
        .select({ n: count() })
        .from(coldDeliveryAttempt)
        .innerJoin(coldPkg, eq(coldPkg.id, coldDeliveryAttempt.package_id))
        .where(where)
        .get()
    )?.n ?? 0
  );
}

/** Refused deliveries of a cold parcel, newest first, with their files' rows. */
export async function keptRefusals(db: Db, packageId: number) {
  const refusals = (await historyRowsOf<typeof refusedDelivery.$inferSelect>(db, packageId, 'refused_delivery')).reverse();
  const links = await historyRowsOf<typeof refusedDeliveryFile.$inferSelect>(db, packageId, 'refused_delivery_file');
  const files = await filesById(
    db,
    links.map((l) => l.file_id),
  );
  return {
    refusals,
    files: links.flatMap((rf) => {
      const f = files.get(rf.file_id);
      return f ? [{ rf, f }] : [];
    }),
  };
}

type RatingRow = typeof deliveryRating.$inferSelect;

/** Ratings of cold parcels (of one company, or all), newest first, at most `limit`, with the parcel's hawb. */
export async function keptRatings(db: Db, companyId: number | undefined, limit: number): Promise<{ r: RatingRow; hawb: string }[]> {
  const rows = await db
    .select({ data: packageHistoryRow.data, hawb: packageHistory.hawb })
    .from(packageHistoryRow)
    .innerJoin(packageHistory, eq(packageHistory.id, packageHistoryRow.package_id))
    .where(and(eq(packageHistoryRow.source, 'delivery_rating'), companyId != null ? eq(packageHistory.company_id, companyId) : undefined))
    .orderBy(desc(packageHistoryRow.row_id))
    .limit(limit)
    .all();
  return rows.map((x) => ({ r: JSON.parse(x.data) as RatingRow, hawb: x.hawb }));
}
