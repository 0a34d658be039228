import { z } from 'zod';
import {
  FailedDeliveryStatus,
  FailedDeliveryStatusCreate,
  FailedDeliveryStatusUpdate,
  PackageType,
  PackageTypeCreate,
  PackageTypeRecord,
  PickupPoint,
  PickupPointCreate,
  PickupPointRecord,
  Warehouse,
  WarehouseCreate,
  WarehouseRecord,
} from '../../shared/schemas/places';
import { failedDeliveryStatus, packageType, pickupPoint, warehouse } from '../db/schema/index';
import { iso } from '../clock';
import { forbidden } from '../errors';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { defineResource, type Row } from '../resources/crud';
import { pickupPointScope } from '../services/org/pickupPoints';
import { logSharedChange } from '../services/sync/changes';

const pick = <K extends string>(row: Row, keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, row[k]])) as Record<K, unknown>;
const WAREHOUSE_FIELDS = ['id', 'street_address', 'additional_details', 'suburb', 'state', 'postcode'] as const;
const PICKUP_FIELDS = ['id', 'person_name', 'email', 'phone', 'address', 'additional_detail', 'suburb', 'state', 'pincode'] as const;

export function placeRoutes(app: App): void {
  defineResource(app, {
    path: 'warehouse',
    table: warehouse,
    label: 'Warehouse',
    view: 'warehouse.view',
    manage: 'warehouse.manage',
    ops: {
      list: ops('web/Warehouse', 'Get'),
      create: ops('web/Warehouse', 'Create'),
      retrieve: ops('web/Warehouse', 'Retrieve'),
      update: ops('web/Warehouse', 'Update'),
      delete: ops('web/Warehouse', 'Delete'),
      statusChange: ops('web/Warehouse', 'Status Change'),
      archiveList: ops('web/Warehouse', 'Archive/Archive List'),
      archive: ops('web/Warehouse', 'Archive/Archive'),
      restore: ops('web/Warehouse', 'Archive/Restore'),
    },
    record: WarehouseRecord,
    create: WarehouseCreate,
    restoreRecord: Warehouse,
    toApi: (r) => ({ ...pick(r, WAREHOUSE_FIELDS), name: r.name, is_active: r.is_active }),
    toRestoreApi: (r) => pick(r, WAREHOUSE_FIELDS),
    list: {
      search: ['name', 'street_address', 'suburb', 'state', 'postcode'],
      ordering: ['name', 'suburb', 'state', 'postcode', 'created_at'],
      filters: { is_active: 'is_active', state: 'state', postcode: 'postcode' },
    },
  });

  defineResource(app, {
    path: 'pickup-point',
    table: pickupPoint,
    label: 'Pickup point',
    view: 'pickup_point.view',
    manage: 'pickup_point.manage',
    ops: {
      list: ops('web/Pickup Point', 'Get'),
      create: ops('web/Pickup Point', 'Create'),
      retrieve: ops('web/Pickup Point', 'Retrieve'),
      update: ops('web/Pickup Point', 'Update'),
      delete: ops('web/Pickup Point', 'Delete'),
      statusChange: ops('web/Pickup Point', 'Status Change'),
      archiveList: ops('web/Pickup Point', 'Archive/Archive List'),
      archive: ops('web/Pickup Point', 'Archive/Archive'),
      restore: ops('web/Pickup Point', 'Archive/Restore'),
    },
    record: PickupPointRecord,
    create: PickupPointCreate,
    restoreRecord: PickupPoint,
    toApi: (r) => ({
      ...pick(r, PICKUP_FIELDS),
      company: r.company_id,
      is_active: r.is_active,
      latitude: r.latitude,
      longitude: r.longitude,
    }),
    toRestoreApi: (r) => pick(r, PICKUP_FIELDS),
    scope: pickupPointScope,
    toRow: (input, { user, existing }) => {
      const { company, ...rest } = input;
      if (user.role === 'company') {
        if (company != null && company !== user.companyId) throw forbidden('A company can only manage its own pickup points');
        return existing ? rest : { ...rest, company_id: user.companyId };
      }
      return company !== undefined ? { ...rest, company_id: company } : rest;
    },
    list: {
      search: ['person_name', 'email', 'phone', 'address', 'suburb', 'pincode'],
      ordering: ['person_name', 'suburb', 'state', 'pincode', 'created_at'],
      filters: { is_active: 'is_active', company: 'company_id', pincode: 'pincode' },
    },
  });

  defineResource(app, {
    path: 'package-type',
    table: packageType,
    label: 'Package type',
    view: 'package_type.view',
    manage: 'package_type.manage',
    ops: {
      list: ops('web/Delivery Rates/Package Type', 'Get'),
      create: ops('web/Delivery Rates/Package Type', 'Create'),
      retrieve: ops('web/Delivery Rates/Package Type', 'Retrieve'),
      update: ops('web/Delivery Rates/Package Type', 'Update'),
      delete: ops('web/Delivery Rates/Package Type', 'Delete'),
      archiveList: ops('web/Delivery Rates/Package Type', 'Archive/Archive List'),
      archive: ops('web/Delivery Rates/Package Type', 'Archive/Archive'),
      restore: ops('web/Delivery Rates/Package Type', 'Archive/Restore'),
    },
    record: PackageTypeRecord,
    create: PackageTypeCreate,
    restoreRecord: PackageType,
    toApi: (r) => ({ id: r.id, package_type: r.package_type, is_active: r.is_active }),
    toRestoreApi: (r) => ({ id: r.id, package_type: r.package_type }),
    list: { search: ['package_type'], ordering: ['package_type', 'created_at'], filters: { is_active: 'is_active' } },
  });

  // Three catalogue groups name the same five operations on one resource (web, photo-upload, mobile).
  const fds = (op: string) => [
    ...ops('web/Failed Delivery Status', op),
    ...ops('web/Photo Upload in Assign Package/Failed Delivery Status', op),
    ...ops('mobile/Package Delivered/Failed Delivery Status', op),
  ];
  defineResource(app, {
    path: 'failed-delivery-status',
    table: failedDeliveryStatus,
    label: 'Failed-delivery status',
    view: 'failed_status.view',
    manage: 'failed_status.manage',
    ops: { list: fds('List'), create: fds('Create'), retrieve: fds('Retrieve'), update: fds('Update'), delete: fds('Delete') },
    record: FailedDeliveryStatus,
    create: FailedDeliveryStatusCreate,
    update: FailedDeliveryStatusUpdate,
    toApi: (r) => ({ id: r.id, name: r.name, is_active: r.is_active, created_at: iso(r.created_at as number) }),
    updateAnswer: { schema: z.object({}).strict(), shape: () => ({}) },
    afterWrite: (db, ids, { deps }) => logSharedChange(db, 'failed_delivery_status', ids, 'upsert', deps.clock.now()),
    list: { search: ['name'], ordering: ['name', 'created_at'], filters: { is_active: 'is_active' } },
  });
}
