import { iso } from '../../clock';
import type { Package } from '../../../shared/schemas/package';
import type { CompanyReportRow } from './company';
import type { Column } from './export';
import type { KpiBy, KpiRow } from './kpi';
import { onTime, type AttemptRow, type DeliveryRow } from './rows';

export const deliveryColumns = (zone: string): Column<DeliveryRow>[] => [
  { header: 'Delivery id', value: (r) => r.id },
  { header: 'Package id', value: (r) => r.package },
  { header: 'HAWB', value: (r) => r.hawb, width: 18 },
  { header: 'Company', value: (r) => r.company_name, width: 20 },
  { header: 'Customer', value: (r) => r.customer_name, width: 22 },
  { header: 'Address', value: (r) => r.customer_address, width: 32 },
  { header: 'Suburb', value: (r) => r.suburb_name },
  { header: 'Zone', value: (r) => r.zone_name },
  { header: 'Driver', value: (r) => r.driver_name, width: 18 },
  { header: 'Delivered at (UTC)', value: (r) => iso(r.occurred_at), width: 24 },
  { header: 'Delivery date', value: (r) => r.delivery_date, width: 12 },
  {
    header: 'On time',
    value: (r) => {
      const ok = onTime(r.occurred_at, r.delivery_date, zone);
      return ok == null ? null : ok ? 'yes' : 'no';
    },
  },
  { header: 'Recipient', value: (r) => r.recipient_name, width: 18 },
  { header: 'Failed attempts before', value: (r) => r.failed_attempts },
  { header: 'Forced', value: (r) => (r.forced ? 'yes' : 'no') },
  { header: 'Note', value: (r) => r.note, width: 30 },
];

export const attemptColumns: Column<AttemptRow>[] = [
  { header: 'Attempt id', value: (r) => r.id },
  { header: 'Package id', value: (r) => r.package },
  { header: 'HAWB', value: (r) => r.hawb, width: 18 },
  { header: 'Company', value: (r) => r.company_name, width: 20 },
  { header: 'Customer', value: (r) => r.customer_name, width: 22 },
  { header: 'Zone', value: (r) => r.zone_name },
  { header: 'Driver', value: (r) => r.driver_name, width: 18 },
  { header: 'Attempt', value: (r) => r.attempt_no },
  { header: 'Reason', value: (r) => r.reason, width: 24 },
  { header: 'Note', value: (r) => r.note, width: 30 },
  { header: 'Failed at (UTC)', value: (r) => iso(r.occurred_at), width: 24 },
  { header: 'Current status', value: (r) => r.status, width: 16 },
  { header: 'Forced', value: (r) => (r.forced ? 'yes' : 'no') },
];

export const kpiColumns = (by: KpiBy, byDay: boolean): Column<KpiRow>[] => [
  ...(byDay ? [{ header: 'Date', value: (r: KpiRow) => r.date, width: 12 }] : []),
  by === 'driver'
    ? { header: 'Driver id', value: (r: KpiRow) => r.driver ?? null }
    : { header: 'Company id', value: (r: KpiRow) => r.company ?? null },
  by === 'driver'
    ? { header: 'Driver', value: (r: KpiRow) => r.driver_name ?? null, width: 20 }
    : { header: 'Company', value: (r: KpiRow) => r.company_name ?? null, width: 20 },
  { header: 'Delivered', value: (r) => r.delivered },
  { header: 'Failed', value: (r) => r.failed },
  { header: 'First attempts', value: (r) => r.first_attempts },
  { header: 'First-attempt success rate', value: (r) => r.first_attempt_success_rate },
  { header: 'On-time eligible', value: (r) => r.on_time_eligible },
  { header: 'On-time rate', value: (r) => r.on_time_rate },
  { header: 'Parcels per hour', value: (r) => r.parcels_per_hour },
  { header: 'First delivery (UTC)', value: (r) => r.first_delivery_at, width: 24 },
  { header: 'Last delivery (UTC)', value: (r) => r.last_delivery_at, width: 24 },
];

export const companyColumns = (statuses: readonly string[]): Column<CompanyReportRow>[] => [
  { header: 'Company id', value: (r) => r.company },
  { header: 'Company', value: (r) => r.company_name, width: 22 },
  { header: 'Created', value: (r) => r.created },
  ...statuses.map((s): Column<CompanyReportRow> => ({ header: `Now ${s.replace(/_/g, ' ')}`, value: (r) => r.by_status[s] ?? 0 })),
  { header: 'Delivered in period', value: (r) => r.delivered },
  { header: 'Failed attempts in period', value: (r) => r.failed },
  { header: 'First-attempt success rate', value: (r) => r.first_attempt_success_rate },
  { header: 'On-time rate', value: (r) => r.on_time_rate },
];

const PACKAGE_FIELDS = [
  'id',
  'hawb',
  'status',
  'company',
  'company_name',
  'customer_code',
  'customer_name',
  'customer_address',
  'customer_phone',
  'postcode',
  'postcode_name',
  'suburb_name',
  'zone_name',
  'description_of_goods',
  'count',
  'weight',
  'price',
  'delivery_date',
  'landed',
  'is_scanned',
  'created_at',
] as const satisfies readonly (keyof Package)[];

export const packageColumns: Column<Package>[] = [
  ...PACKAGE_FIELDS.map((k): Column<Package> => ({ header: k, value: (p) => p[k] })),
  { header: 'driver', value: (p) => p.assigned_to?.name ?? null },
  { header: 'failed_reasons', value: (p) => p.package_failed_delivery_status.map((x) => x.name).join('; ') || null },
];
