import { Unit, UnitCreate, UnitUpdate } from '../../../shared/schemas/money';
import { unitOfMeasurement } from '../../db/schema/index';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineResource } from '../../resources/crud';
import { validateUnit } from '../../services/money/units';
import { filters } from './filters';

const g = 'web/Delivery Rates/Unit Of Measurement';

export function unitRoutes(app: App): void {
  defineResource(app, {
    path: 'unit-of-measurement',
    table: unitOfMeasurement,
    label: 'Unit of measurement',
    view: 'unit.view',
    manage: 'unit.manage',
    tags: ['Delivery Rates'],
    ops: {
      list: ops(g, 'Get'),
      create: ops(g, 'Create'),
      retrieve: ops(g, 'Retrieve'),
      update: ops(g, 'Update'),
      delete: ops(g, 'Delete'),
    },
    record: Unit,
    create: UnitCreate,
    update: UnitUpdate,
    toApi: (r) => ({ id: r.id, name: r.name, symbol: r.symbol, kg_factor: r.kg_factor, is_active: r.is_active }),
    validate: validateUnit,
    listQuery: filters('is_active', 'symbol'),
    list: {
      search: ['name', 'symbol'],
      ordering: ['name', 'symbol', 'kg_factor', 'created_at'],
      filters: { is_active: 'is_active', symbol: 'symbol' },
    },
  });
}
