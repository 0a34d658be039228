import { and, isNull, ne, sql } from 'drizzle-orm';
import { Unit, UnitCreate, UnitUpdate } from '../../../shared/schemas/money';
import { unitOfMeasurement } from '../../db/schema/index';
import { conflict } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineResource } from '../../resources/crud';
import { filters } from './filters';

const g = 'web/Delivery Rates/Unit Of Measurement';

export function unitRoutes(app: App): void {
  defineResource(app, {
    path: 'unit-of-measurement', table: unitOfMeasurement, label: 'Unit of measurement', view: 'unit.view', manage: 'unit.manage',
    tags: ['Delivery Rates'],
    ops: { list: ops(g, 'Get'), create: ops(g, 'Create'), retrieve: ops(g, 'Retrieve'), update: ops(g, 'Update'), delete: ops(g, 'Delete') },
    record: Unit, create: UnitCreate, update: UnitUpdate,
    toApi: (r) => ({ id: r.id, name: r.name, symbol: r.symbol, kg_factor: r.kg_factor, is_active: r.is_active }),
    // Rates name a unit by symbol on screens, so two live units never share one.
    validate: async (values, { deps, existing }) => {
      const symbol = String(values.symbol).toLowerCase();
      const dup = await deps.db.select({ id: unitOfMeasurement.id }).from(unitOfMeasurement).where(and(
        sql`lower(${unitOfMeasurement.symbol}) = ${symbol}`, isNull(unitOfMeasurement.deleted_at),
        existing ? ne(unitOfMeasurement.id, existing.id as number) : undefined,
      )).get();
      if (dup) throw conflict(`Unit ${String(values.symbol)} already exists (unit ${dup.id})`);
    },
    listQuery: filters('is_active', 'symbol'),
    list: { search: ['name', 'symbol'], ordering: ['name', 'symbol', 'kg_factor', 'created_at'], filters: { is_active: 'is_active', symbol: 'symbol' } },
  });
}
