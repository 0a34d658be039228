import { ROLES } from '../../../shared/roles';
import { CityCreate, CityUpdate, CountryCreate, CountryUpdate, PincodeCreate, PincodeUpdate, StateCreate, StateUpdate, StreetCreate, StreetUpdate, SuburbCreate, SuburbUpdate, AreaCreate, AreaUpdate, ZoneCreate, ZoneUpdate } from '../../../shared/schemas/geo';
import { DeliveryRateCreate, DeliveryRateUpdate, DriverRateCreate, DriverRateUpdate, UnitCreate, UnitUpdate } from '../../../shared/schemas/money';
import { BILLING_TYPES, COMPANY_STATUSES, CompanyCreate, CompanyUpdate, EmployeeCreate, EmployeeUpdate } from '../../../shared/schemas/people';
import { VEHICLE_TYPES, VehicleCreate } from '../../../shared/schemas/dispatch';
import { updateOf } from '../../../shared/schemas/common';
import { FailedDeliveryStatusCreate, FailedDeliveryStatusUpdate, PackageTypeCreate, PickupPointCreate, WarehouseCreate } from '../../../shared/schemas/places';
import { ROLE_LABELS } from '../../app/access';
import { ActiveBadge, Badge, type Tone } from '../../ui/Badge';
import type { Column } from '../../ui/DataTable';
import type { RefDecl, ResourceDecl, Row } from './types';
import { DeactivateEmployeeDialog } from '../org/DeactivateEmployee';

const str = (v: unknown) => (v == null ? '' : String(v));
const byName: RefDecl['label'] = (r) => str(r.name ?? r.code ?? r.id);

/** Foreign keys by field name, shared by every declaration that has such a field. */
export const REFS: Record<string, RefDecl> = {
  company: { endpoint: 'company', label: (r) => `${str(r.name)} (${str(r.code)})` },
  country: { endpoint: 'country', label: byName },
  state: { endpoint: 'state', label: byName },
  city: { endpoint: 'city', label: byName },
  suburb: { endpoint: 'suburb', label: (r) => `${str(r.name)}${r.postcode ? ` ${str(r.postcode)}` : ''}` },
  area: { endpoint: 'area', label: byName },
  zone: { endpoint: 'zone', label: byName },
  warehouse: { endpoint: 'warehouse', label: (r) => str(r.name) || `${str(r.street_address)}, ${str(r.suburb)}` },
  package_type: { endpoint: 'package-type', label: (r) => str(r.package_type) },
  unit: { endpoint: 'unit-of-measurement', label: (r) => `${str(r.name)} (${str(r.symbol)})` },
  driver: { endpoint: 'employee/driver-list', label: byName },
};

const active: Column<Row> = { key: 'is_active', label: 'Status', render: (r) => <ActiveBadge active={r.is_active === true} /> };
const created: Column<Row> = { key: 'created_at', label: 'Created', sort: 'created_at', optional: true, render: (r) => (r.created_at ? new Date(str(r.created_at)).toLocaleString() : '—') };
const id: Column<Row> = { key: 'id', label: 'ID', sort: 'id', numeric: true, optional: true };
const activeFilter = { name: 'is_active', label: 'Status', options: [{ value: 'true', label: 'Active' }, { value: 'false', label: 'Inactive' }] } as const;
const money = (field: string) => (r: Row) => (typeof r[field] === 'number' ? `${((r[field] as number) / 100).toFixed(2)} ${str(r.currency)}` : '—');
const refName = (field: string) => (r: Row) => str(r[`${field}_name`]) || (r[field] == null ? '—' : `#${str(r[field])}`);

const COMPANY_TONE: Record<string, Tone> = { active: 'ok', pending: 'warn', suspended: 'bad' };

export const RESOURCES: readonly ResourceDecl[] = [
  {
    name: 'warehouse', title: 'Warehouses', singular: 'Warehouse', view: 'warehouse.view', manage: 'warehouse.manage',
    create: WarehouseCreate, archive: true, status: { kind: 'active' }, ordering: 'name',
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'street_address', label: 'Street address' },
      { key: 'additional_details', label: 'Details', optional: true }, { key: 'suburb', label: 'Suburb', sort: 'suburb' },
      { key: 'state', label: 'State', sort: 'state' }, { key: 'postcode', label: 'Postcode', sort: 'postcode' }, active],
    filters: [activeFilter],
  },
  {
    name: 'pickup-point', title: 'Pickup points', singular: 'Pickup point', view: 'pickup_point.view', manage: 'pickup_point.manage',
    create: PickupPointCreate, archive: true, status: { kind: 'active' },
    labels: { person_name: 'Contact person', additional_detail: 'Additional details', pincode: 'Postcode' },
    columns: [id, { key: 'person_name', label: 'Contact', sort: 'person_name' }, { key: 'phone', label: 'Phone' }, { key: 'email', label: 'E-mail', optional: true },
      { key: 'address', label: 'Address' }, { key: 'suburb', label: 'Suburb', sort: 'suburb' }, { key: 'pincode', label: 'Postcode', sort: 'pincode' }, active],
    filters: [activeFilter, { name: 'company', label: 'Company', options: REFS.company! }],
  },
  {
    name: 'package-type', title: 'Package types', singular: 'Package type', view: 'package_type.view', manage: 'package_type.manage',
    create: PackageTypeCreate, archive: true, ordering: 'package_type', labels: { package_type: 'Name' },
    columns: [id, { key: 'package_type', label: 'Package type', sort: 'package_type' }, active],
    filters: [activeFilter],
  },
  {
    name: 'failed-delivery-status', title: 'Failed-delivery reasons', singular: 'Failed-delivery reason', view: 'failed_status.view', manage: 'failed_status.manage',
    create: FailedDeliveryStatusCreate, update: FailedDeliveryStatusUpdate, updateAnswersEmpty: true, ordering: 'name',
    labels: { name: 'Reason' },
    columns: [id, { key: 'name', label: 'Reason', sort: 'name' }, active, created],
    filters: [activeFilter],
  },
  {
    name: 'company', title: 'Companies', singular: 'Company', view: 'company.view', manage: 'company.manage',
    create: CompanyCreate, update: CompanyUpdate, archive: true, status: { kind: 'enum', field: 'status', options: COMPANY_STATUSES },
    labels: { abn: 'ABN', billing_type: 'Billing' }, hints: { code: 'Short code on labels and reports', currency: 'ISO code, e.g. AUD' },
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'code', label: 'Code', sort: 'code' }, { key: 'email', label: 'E-mail' },
      { key: 'phone', label: 'Phone', optional: true }, { key: 'billing_type', label: 'Billing' },
      { key: 'status', label: 'Status', sort: 'status', render: (r) => <Badge tone={COMPANY_TONE[str(r.status)] ?? 'muted'}>{str(r.status)}</Badge> }, created],
    filters: [
      { name: 'status', label: 'Status', options: COMPANY_STATUSES.map((s) => ({ value: s, label: s })) },
      { name: 'billing_type', label: 'Billing', options: BILLING_TYPES.map((s) => ({ value: s, label: s })) },
    ],
  },
  {
    name: 'employee', title: 'Employees', singular: 'Employee', view: 'employee.view', manage: 'employee.manage',
    create: EmployeeCreate, update: EmployeeUpdate, archive: true, status: { kind: 'active' }, createOnly: [],
    deactivateDialog: DeactivateEmployeeDialog,
    hints: { password: 'Sets the login password; leave empty to keep it' },
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'email', label: 'E-mail', sort: 'email' }, { key: 'phone', label: 'Phone', optional: true },
      { key: 'role', label: 'Role', sort: 'role', render: (r) => ROLE_LABELS[r.role as keyof typeof ROLE_LABELS] ?? str(r.role) },
      { key: 'company', label: 'Company', optional: true }, active, created],
    filters: [
      { name: 'role', label: 'Role', options: ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] })) },
      { name: 'company', label: 'Company', options: REFS.company! },
      activeFilter,
    ],
  },
  {
    name: 'country', title: 'Countries', singular: 'Country', view: 'geo.view', manage: 'geo.manage',
    create: CountryCreate, update: CountryUpdate, archive: true, ordering: 'name', labels: { iso2: 'ISO code' },
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'iso2', label: 'ISO' }, { key: 'currency', label: 'Currency' }, active],
    filters: [activeFilter],
  },
  {
    name: 'state', title: 'States', singular: 'State', view: 'geo.view', manage: 'geo.manage',
    create: StateCreate, update: StateUpdate, archive: true, ordering: 'name',
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'code', label: 'Code' }, { key: 'country', label: 'Country', render: refName('country') }, active],
    filters: [{ name: 'country', label: 'Country', options: REFS.country! }, activeFilter],
  },
  {
    name: 'city', title: 'Cities', singular: 'City', view: 'geo.view', manage: 'geo.manage',
    create: CityCreate, update: CityUpdate, archive: true, ordering: 'name',
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'state', label: 'State', render: refName('state') }, active],
    filters: [{ name: 'state', label: 'State', options: REFS.state! }, activeFilter],
  },
  {
    name: 'suburb', title: 'Suburbs', singular: 'Suburb', view: 'geo.view', manage: 'geo.manage',
    create: SuburbCreate, update: SuburbUpdate, archive: true, ordering: 'name',
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'postcode', label: 'Postcode' }, { key: 'state', label: 'State', render: refName('state') },
      { key: 'city', label: 'City', render: refName('city'), optional: true }, { key: 'zone', label: 'Zone', render: refName('zone') }, active],
    filters: [{ name: 'zone', label: 'Zone', options: REFS.zone! }, { name: 'state', label: 'State', options: REFS.state! }, activeFilter],
  },
  {
    name: 'zone', title: 'Zones', singular: 'Zone', view: 'geo.view', manage: 'geo.manage',
    create: ZoneCreate, update: ZoneUpdate, archive: true, ordering: 'name', hints: { code: 'Shown to depot staff when a parcel is scanned into this zone' },
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'code', label: 'Code' }, { key: 'warehouse', label: 'Warehouse', render: refName('warehouse') },
      { key: 'description', label: 'Description', optional: true }, active],
    filters: [{ name: 'warehouse', label: 'Warehouse', options: REFS.warehouse! }, activeFilter],
  },
  {
    name: 'area', title: 'Areas', singular: 'Area', view: 'geo.view', manage: 'geo.manage',
    create: AreaCreate, update: AreaUpdate, archive: true, ordering: 'name',
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'suburb', label: 'Suburb', render: refName('suburb') }, active],
    filters: [{ name: 'suburb', label: 'Suburb', options: REFS.suburb! }, activeFilter],
  },
  {
    name: 'street', title: 'Streets', singular: 'Street', view: 'geo.view', manage: 'geo.manage',
    create: StreetCreate, update: StreetUpdate, archive: true, ordering: 'name',
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'area', label: 'Area', render: refName('area') }, active],
    filters: [{ name: 'area', label: 'Area', options: REFS.area! }, activeFilter],
  },
  {
    name: 'pincode', title: 'Postcodes', singular: 'Postcode', view: 'geo.view', manage: 'geo.manage',
    create: PincodeCreate, update: PincodeUpdate, archive: true, ordering: 'code', labels: { code: 'Postcode' },
    columns: [id, { key: 'code', label: 'Postcode', sort: 'code' }, { key: 'suburb', label: 'Suburb', render: refName('suburb') },
      { key: 'state', label: 'State', render: refName('state') }, { key: 'zone', label: 'Zone', render: refName('zone') }, active],
    filters: [{ name: 'suburb', label: 'Suburb', options: REFS.suburb! }, activeFilter],
  },
  {
    name: 'unit-of-measurement', title: 'Units of measurement', singular: 'Unit', view: 'unit.view', manage: 'unit.manage',
    create: UnitCreate, update: UnitUpdate, ordering: 'name', labels: { kg_factor: 'Kilograms per unit' },
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'symbol', label: 'Symbol' }, { key: 'kg_factor', label: 'kg per unit', numeric: true }, active],
    filters: [activeFilter],
  },
  {
    name: 'delivery-rate', title: 'Delivery rates', singular: 'Delivery rate', view: 'rate.view', manage: 'rate.manage',
    create: DeliveryRateCreate, update: DeliveryRateUpdate,
    labels: { base_cents: 'Base price (cents)', per_unit_cents: 'Per extra unit (cents)', min_weight: 'From weight', max_weight: 'Up to weight', volumetric_divisor: 'Volumetric divisor' },
    hints: { company: 'Empty: the default rate card', currency: 'ISO code, e.g. AUD' },
    columns: [id, { key: 'name', label: 'Name' }, { key: 'company', label: 'Company', render: (r) => (r.company == null ? 'Default card' : `#${str(r.company)}`) },
      { key: 'zone', label: 'Zone', render: (r) => (r.zone == null ? 'Any' : `#${str(r.zone)}`) }, { key: 'min_weight', label: 'From', numeric: true },
      { key: 'max_weight', label: 'To', numeric: true }, { key: 'base_cents', label: 'Base', numeric: true, render: money('base_cents') },
      { key: 'per_unit_cents', label: 'Per unit', numeric: true, render: money('per_unit_cents') }, active],
    filters: [{ name: 'company', label: 'Company', options: REFS.company! }, { name: 'zone', label: 'Zone', options: REFS.zone! }],
  },
  {
    name: 'driver-delivery-rate', title: 'Driver rates', singular: 'Driver rate', view: 'rate.view', manage: 'rate.manage',
    create: DriverRateCreate, update: DriverRateUpdate,
    labels: { amount_cents: 'Amount per delivery (cents)' }, hints: { driver: 'Empty: every driver' },
    columns: [id, { key: 'name', label: 'Name' }, { key: 'driver', label: 'Driver', render: (r) => (r.driver == null ? 'All drivers' : `#${str(r.driver)}`) },
      { key: 'zone', label: 'Zone', render: (r) => (r.zone == null ? 'Any' : `#${str(r.zone)}`) },
      { key: 'amount_cents', label: 'Amount', numeric: true, render: money('amount_cents') }, { key: 'effective_from', label: 'From' }, active],
    filters: [{ name: 'driver', label: 'Driver', options: REFS.driver! }],
  },
  {
    // Issue 36: the fleet from the browser; what the planner may load on each van.
    name: 'vehicle', title: 'Vehicles', singular: 'Vehicle', view: 'route.view', manage: 'route.manage',
    create: VehicleCreate, update: updateOf(VehicleCreate), archive: true, status: { kind: 'active' }, ordering: 'name',
    labels: { capacity_kg: 'Capacity (kg)', capacity_m3: 'Capacity (m³)', capacity_parcels: 'Capacity (parcels)' },
    hints: { capacity_kg: 'Empty: no limit', capacity_m3: 'Empty: no limit', capacity_parcels: 'Empty: no limit' },
    columns: [id, { key: 'name', label: 'Name', sort: 'name' }, { key: 'type', label: 'Type', sort: 'type' }, { key: 'registration', label: 'Registration' },
      { key: 'capacity_kg', label: 'kg', numeric: true, optional: true }, { key: 'capacity_parcels', label: 'Parcels', numeric: true, optional: true }, active],
    filters: [{ name: 'type', label: 'Type', options: VEHICLE_TYPES.map((t) => ({ value: t, label: t })) }, activeFilter],
  },
];

export function resourceByName(name: string): ResourceDecl | undefined {
  return RESOURCES.find((r) => r.name === name);
}
