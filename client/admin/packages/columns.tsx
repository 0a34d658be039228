import type { ComponentChildren } from 'preact';
import type { Package } from '../../../shared/schemas/package';
import { DEFAULT_PACKAGE_COLUMNS } from '../../../shared/schemas/org';
import { StatusBadge } from '../../ui/Badge';
import type { Column } from '../../ui/DataTable';
import { shortDateTime } from '../../ui/when';

export type PackageRow = Package;

const SORTABLE: Record<string, string> = {
  hawb: 'hawb',
  status: 'status',
  created_at: 'created_at',
  customer_name: 'customer_name',
  sequence_no: 'sequence_no',
  delivery_date: 'delivery_date',
};

const LABELS: Record<string, string> = {
  hawb: 'Tracking no (HAWB)',
  customer_name: 'Customer',
  customer_address: 'Address',
  postcode: 'Postcode',
  company_name: 'Company',
  status: 'Status',
  assigned_to: 'Driver',
  created_at: 'Created',
  zone_name: 'Zone',
  is_scanned: 'On van',
  customer_phone: 'Phone',
  weight: 'Weight',
  price: 'Price',
  delivery_date: 'Delivery date',
  suburb_name: 'Suburb',
  description_of_goods: 'Goods',
};

const human = (key: string) => LABELS[key] ?? key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

const RENDER: Partial<Record<string, (p: PackageRow) => ComponentChildren>> = {
  hawb: (p) => (
    <a class="mono" href={`#/packages/${p.id}`}>
      {p.hawb}
    </a>
  ),
  status: (p) => <StatusBadge status={p.status} />,
  assigned_to: (p) => p.assigned_to?.name ?? <span class="muted">Unassigned</span>,
  created_at: (p) => shortDateTime(p.created_at),
  coordinates: (p) => (p.coordinates ? `${p.coordinates.latitude.toFixed(5)}, ${p.coordinates.longitude.toFixed(5)}` : '—'),
  package_failed_delivery_status: (p) =>
    p.package_failed_delivery_status.length ? p.package_failed_delivery_status.map((f) => f.name).join(', ') : '—',
};

/** Every field of spec 2.1 can be a column; the profile's default set shows first. */
const ALL_KEYS: readonly string[] = [
  ...DEFAULT_PACKAGE_COLUMNS,
  'zone_name',
  'is_scanned',
  'customer_phone',
  'suburb_name',
  'weight',
  'price',
  'delivery_date',
  'description_of_goods',
  'customer_code',
  'count',
  'parcel_no',
  'sequence_no',
  'shipper_name',
  'shipper_city',
  'origin',
  'pkg_type',
  'landed',
  'id',
];

export const PACKAGE_COLUMNS: Column<PackageRow>[] = [...new Set(ALL_KEYS)].map((key) => ({
  key,
  label: human(key),
  sort: SORTABLE[key],
  numeric: key === 'weight' || key === 'price' || key === 'count' || key === 'id',
  optional: !(DEFAULT_PACKAGE_COLUMNS as readonly string[]).includes(key),
  render: RENDER[key],
}));
/** Not a Package field (the spec's shape is exact): the list fills it from `package/locations/` (precision badges). */
export const LOCATION_COLUMN_KEY = 'location';
PACKAGE_COLUMNS.splice(4, 0, { key: LOCATION_COLUMN_KEY, label: 'Location', optional: false, render: () => '—' });
