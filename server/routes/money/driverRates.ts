import { eq, sql } from 'drizzle-orm';
import { isStaff } from '../../../shared/roles';
import { DriverRate, DriverRateCreate, DriverRateUpdate } from '../../../shared/schemas/money';
import { iso } from '../../clock';
import { driverRate, user } from '../../db/schema/index';
import { badRequest } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineResource, type Row } from '../../resources/crud';
import { filters } from './filters';

const g = 'web/Driver Delivery Rates';

/** `2026-02-01` is that day's start (UTC); a datetime is taken as given. */
const toMs = (v: string | null | undefined) => (v == null ? v : Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v));

export function driverRateRoutes(app: App): void {
  defineResource(app, {
    path: 'driver-delivery-rate', table: driverRate, label: 'Driver delivery rate', view: 'rate.view', manage: 'rate.manage',
    tags: ['Driver Delivery Rates'],
    ops: { list: ops(g, 'Get'), create: ops(g, 'Create'), retrieve: ops(g, 'Retrieve'), update: ops(g, 'Update'), delete: ops(g, 'Delete') },
    record: DriverRate, create: DriverRateCreate, update: DriverRateUpdate,
    // What drivers are paid is the courier's business, not its customers'.
    scope: (u) => (isStaff(u.role) ? undefined : sql`0 = 1`),
    toApi: (r) => ({
      id: r.id, name: r.name, driver: r.driver_id, zone: r.zone_id, package_type: r.package_type_id, amount_cents: r.amount_cents,
      currency: r.currency, effective_from: iso(r.effective_from as number), effective_to: iso(r.effective_to as number | null),
      is_active: r.is_active, created_at: iso(r.created_at as number),
    }),
    toRow: (input, { deps, existing }) => {
      const { driver, zone, package_type, effective_from, effective_to, ...rest } = input;
      const row: Row = { ...rest };
      if (driver !== undefined) row.driver_id = driver;
      if (zone !== undefined) row.zone_id = zone;
      if (package_type !== undefined) row.package_type_id = package_type;
      if (effective_from !== undefined) row.effective_from = toMs(effective_from);
      else if (!existing) row.effective_from = deps.clock.now();
      if (effective_to !== undefined) row.effective_to = toMs(effective_to);
      return row;
    },
    validate: async (values, { deps }) => {
      if (values.effective_to != null && Number(values.effective_to) <= Number(values.effective_from)) {
        throw badRequest('effective_to must be after effective_from', [{ path: 'effective_to', message: 'must be after effective_from' }]);
      }
      if (values.driver_id != null) {
        const d = await deps.db.select({ role: user.role }).from(user).where(eq(user.id, Number(values.driver_id))).get();
        if (d?.role !== 'driver') throw badRequest(`User ${String(values.driver_id)} is not a driver`, [{ path: 'driver', message: 'not a driver' }]);
      }
    },
    listQuery: filters('driver', 'zone', 'package_type', 'currency', 'is_active'),
    list: {
      search: ['name', 'currency'], ordering: ['amount_cents', 'effective_from', 'created_at', 'driver_id'],
      filters: { driver: 'driver_id', zone: 'zone_id', package_type: 'package_type_id', currency: 'currency', is_active: 'is_active' },
    },
  });
}
