import { DriverRate, DriverRateCreate, DriverRateUpdate } from '../../../shared/schemas/money';
import { iso } from '../../clock';
import { driverRate } from '../../db/schema/index';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineResource } from '../../resources/crud';
import { driverRateRow, driverRateScope, validateDriverRate } from '../../services/money/driverRates';
import { filters } from './filters';

const g = 'web/Driver Delivery Rates';

export function driverRateRoutes(app: App): void {
  defineResource(app, {
    path: 'driver-delivery-rate',
    table: driverRate,
    label: 'Driver delivery rate',
    view: 'rate.view',
    manage: 'rate.manage',
    tags: ['Driver Delivery Rates'],
    ops: {
      list: ops(g, 'Get'),
      create: ops(g, 'Create'),
      retrieve: ops(g, 'Retrieve'),
      update: ops(g, 'Update'),
      delete: ops(g, 'Delete'),
    },
    record: DriverRate,
    create: DriverRateCreate,
    update: DriverRateUpdate,
    scope: driverRateScope,
    toApi: (r) => ({
      id: r.id,
      name: r.name,
      driver: r.driver_id,
      zone: r.zone_id,
      package_type: r.package_type_id,
      amount_cents: r.amount_cents,
      currency: r.currency,
      effective_from: iso(r.effective_from as number),
      effective_to: iso(r.effective_to as number | null),
      is_active: r.is_active,
      created_at: iso(r.created_at as number),
    }),
    toRow: driverRateRow,
    validate: validateDriverRate,
    listQuery: filters('driver', 'zone', 'package_type', 'currency', 'is_active'),
    list: {
      search: ['name', 'currency'],
      ordering: ['amount_cents', 'effective_from', 'created_at', 'driver_id'],
      filters: { driver: 'driver_id', zone: 'zone_id', package_type: 'package_type_id', currency: 'currency', is_active: 'is_active' },
    },
  });
}
