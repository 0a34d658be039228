import { z } from 'zod';
import { ShiftCreate, Shift, Vehicle, VehicleCreate } from '../../../shared/schemas/dispatch';
import { driverShift, vehicle } from '../../db/schema/index';
import type { App } from '../../http/env';
import { defineResource } from '../../resources/crud';
import { shiftRule, shiftScope, shiftToRow, toShift, toVehicle, vehicleToRow } from '../../services/dispatch/resources';

const tags = ['Dispatch'];
const filters = (...names: string[]) => z.object(Object.fromEntries(names.map((n) => [n, z.string().trim().max(2000).optional()])));

/** Vehicles and driver shifts: flat resources of the dispatch board (no catalogue ids: issue 16). */
export function dispatchResourceRoutes(app: App): void {
  defineResource(app, {
    path: 'vehicle',
    table: vehicle,
    label: 'Vehicle',
    view: 'route.view',
    manage: 'route.manage',
    tags,
    ops: { list: [], create: [], retrieve: [], update: [], delete: [], archiveList: [], archive: [], restore: [], statusChange: [] },
    record: Vehicle,
    create: VehicleCreate,
    toApi: toVehicle,
    toRow: vehicleToRow,
    list: {
      search: ['name', 'registration'],
      ordering: ['name', 'type', 'created_at'],
      defaultOrdering: 'name',
      filters: { type: 'type', is_active: 'is_active' },
    },
    listQuery: filters('type', 'is_active'),
  });

  defineResource(app, {
    path: 'driver-shift',
    table: driverShift,
    label: 'Driver shift',
    view: 'route.view',
    manage: 'route.manage',
    tags,
    ops: { list: [], create: [], retrieve: [], update: [], delete: [] },
    record: Shift,
    create: ShiftCreate,
    toApi: toShift,
    toRow: shiftToRow,
    validate: shiftRule,
    scope: shiftScope,
    list: {
      search: [],
      ordering: ['date', 'start_time', 'created_at'],
      defaultOrdering: 'start_time',
      filters: { date: 'date', driver: 'driver_id', vehicle: 'vehicle_id' },
    },
    listQuery: filters('date', 'driver', 'vehicle'),
  });
}
