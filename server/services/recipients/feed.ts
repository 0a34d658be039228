import { and, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inJsonIds } from '../../db/engine/dialect';
import { prepared } from '../../db/prepared';
import { packageRecipient } from '../../db/schema/index';
import { RawJson } from '../../http/rawJson';

const instructionsOf = (db: Db) =>
  db
    .select({ id: packageRecipient.package_id, text: packageRecipient.instructions })
    .from(packageRecipient)
    .where(and(isNotNull(packageRecipient.instructions), inJsonIds(db, packageRecipient.package_id, sql.placeholder('ids'))))
    .prepare();

// SQLite writes `{"id":1,`, PostgreSQL `{"id" : 1, `.
const ID_PREFIX = /^\{\s*"id"\s*:\s*(\d+)\s*[,}]/;

/**
 * The parcels of a sync page with the recipient's delivery instructions added as
 * `recipient_instructions` (a member of the synced copy only, not of the Package answer of spec 2.1),
 * so the driver reads them on the phone with no signal. Parcels without instructions are unchanged.
 */
export async function withRecipientInstructions(db: Db, packages: RawJson[]): Promise<RawJson[]> {
  if (!packages.length) return packages;
  const ids = packages.map((p) => Number(ID_PREFIX.exec(p.text)?.[1]));
  const found = new Map(
    (await prepared(db, 'recipients.instructionsOf', instructionsOf).all({ ids: JSON.stringify(ids) })).map((r) => [r.id, r.text]),
  );
  if (!found.size) return packages;
  return packages.map((p, i) => {
    const text = found.get(ids[i]!);
    return text == null ? p : new RawJson(`${p.text.slice(0, -1)},"recipient_instructions":${JSON.stringify(text)}}`);
  });
}
