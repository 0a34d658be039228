import { and, eq, gte, isNull, lt } from 'drizzle-orm';
import { isStaff } from '../../../shared/roles';
import type { Db } from '../../db/client';
import { isLive, pkg } from '../../db/schema/index';
import type { SessionUser } from '../auth/session';

/** Shorter than this, a code is noise, not part of a label. */
const MIN_PART = 3;
/** Above every character a label uses: the end of a prefix range on the hawb index. */
const PREFIX_END = '\u{10FFFF}';

/**
 * Whether an unknown code is a label read only in part (a scanner cut short, issue 35): a driver's
 * code found inside one of their own open parcels' labels (front, middle or end: the set is small
 * and indexed); staff's code at the front of any label (a range on the unique hawb index, so it stays
 * cheap on a big table). Nothing of the other parcel is ever answered, only that it looks misread.
 */
export async function looksMisread(db: Db, actor: Pick<SessionUser, 'id' | 'role'>, code: string): Promise<boolean> {
  const part = code.trim();
  if (part.length < MIN_PART) return false;
  if (actor.role === 'driver') {
    const mine = await db
      .select({ hawb: pkg.hawb })
      .from(pkg)
      .where(and(eq(pkg.assigned_to_id, actor.id), isNull(pkg.deleted_at), isLive(pkg.status)));
    if (mine.some((r) => r.hawb !== part && r.hawb.includes(part))) return true;
  }
  if (!isStaff(actor.role)) return false;
  // The range can hold labels that sort there without starting with the code (a collation's
  // ordering); startsWith decides.
  const near = await db
    .select({ hawb: pkg.hawb })
    .from(pkg)
    .where(and(gte(pkg.hawb, part), lt(pkg.hawb, `${part}${PREFIX_END}`), isNull(pkg.deleted_at)))
    .limit(5);
  return near.some((r) => r.hawb !== part && r.hawb.startsWith(part));
}
