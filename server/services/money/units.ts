import { isNull, sql } from 'drizzle-orm';
import { unitOfMeasurement } from '../../db/schema/index';
import { twinOf } from '../../db/twin';
import { conflict } from '../../errors';
import type { ResourceContext, Row } from '../../resources/crud';

/** Rates name a unit by symbol on screens, so two live units never share one (whatever its case). */
export async function validateUnit(values: Row, { deps, existing }: ResourceContext): Promise<void> {
  const symbol = String(values.symbol).toLowerCase();
  const dup = await twinOf(
    deps.db,
    unitOfMeasurement,
    [sql`lower(${unitOfMeasurement.symbol}) = ${symbol}`, isNull(unitOfMeasurement.deleted_at)],
    existing?.id,
  );
  if (dup) throw conflict(`Unit ${String(values.symbol)} already exists (unit ${dup.id})`);
}
