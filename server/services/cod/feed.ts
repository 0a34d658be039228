import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { packageCod } from '../../db/schema/index';
import { RawJson } from '../../http/rawJson';
import type { CodOnPhone } from '../../../shared/cod';

const ID_PREFIX = /^\{\s*"id"\s*:\s*(\d+)\s*[,}]/;

/**
 * The parcels of a sync page with what the driver must collect added as `cod` (shared/cod.ts
 * CodOnPhone): the amount, what the office waived and the currency, so the phone asks for the
 * collection and refuses a short one with no signal. Parcels with nothing to collect (or collected
 * already) are unchanged.
 */
export async function withCod(db: Db, packages: RawJson[]): Promise<RawJson[]> {
  if (!packages.length) return packages;
  const ids = packages.map((p) => Number(ID_PREFIX.exec(p.text)?.[1]));
  const rows = new Map<number, CodOnPhone>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const r of await db
      .select()
      .from(packageCod)
      .where(inArray(packageCod.package_id, ids.slice(i, i + 500)))
      .all()) {
      if (r.collected_at == null)
        rows.set(r.package_id, { amount_cents: r.amount_cents, waived_cents: r.waived_cents, currency: r.currency });
    }
  }
  if (!rows.size) return packages;
  return packages.map((p, i) => {
    const cod = rows.get(ids[i]!);
    return cod ? new RawJson(`${p.text.slice(0, -1)},"cod":${JSON.stringify(cod)}}`) : p;
  });
}
