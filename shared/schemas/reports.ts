import { z } from 'zod';
import { TimeZoneName } from './time';
import { idParam, MAX_PAGE_SIZE } from './common';

/** The longest period one report covers; exports stream, so this bounds time, not memory. */
export const MAX_REPORT_DAYS = 366;
export const DEFAULT_REPORT_DAYS = 30;

const day = z.iso.date();

/** Period (local days, both included), scope filters, and the zone whose days they are (issue 31). */
export const ReportQuery = z.object({
  from: day.optional(),
  to: day.optional(),
  company: idParam.optional(),
  driver: idParam.optional(),
  zone: idParam.optional(),
  /** IANA zone the days are counted in; default the business's (its profile, else TIME_ZONE). */
  time_zone: TimeZoneName.optional(),
  /** Older clients: minutes east of UTC, a fixed offset (no daylight saving). `time_zone` wins when both are given. */
  utc_offset: z.coerce.number().int().min(-840).max(840).optional(),
});
export type ReportQuery = z.output<typeof ReportQuery>;

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export const ExportQuery = ReportQuery.extend({ format: z.enum(EXPORT_FORMATS).default('xlsx') });
export const CsvExportQuery = ReportQuery.extend({ format: z.enum(EXPORT_FORMATS).default('csv') });
export const PagedReportQuery = ReportQuery.extend({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
});
export const PodQuery = ReportQuery.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  /** Deliveries per PDF: a busy month is several files rather than one enormous one. */
  page_size: z.coerce.number().int().min(1).max(1000).default(300),
});

const period = z.object({ from: z.string(), to: z.string(), time_zone: z.string(), utc_offset: z.number().int() });
const rate = z.number().nullable();

export const KpiRow = z.object({
  date: z.string().nullable(),
  driver: z.number().int().nullable().optional(),
  driver_name: z.string().nullable().optional(),
  company: z.number().int().nullable().optional(),
  company_name: z.string().nullable().optional(),
  delivered: z.number().int(),
  failed: z.number().int(),
  first_attempts: z.number().int(),
  first_attempt_success_rate: rate,
  on_time_eligible: z.number().int(),
  on_time_rate: rate,
  parcels_per_hour: rate,
  first_delivery_at: z.string().nullable(),
  last_delivery_at: z.string().nullable(),
});
export const KpiAnswer = z.object({
  success: z.boolean(),
  period,
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(KpiRow),
});

export const FailedReportRow = z.object({
  id: z.number().int(),
  package: z.number().int(),
  hawb: z.string(),
  company: z.number().int().nullable(),
  company_name: z.string().nullable(),
  customer_name: z.string().nullable(),
  zone: z.number().int().nullable(),
  zone_name: z.string().nullable(),
  driver: z.number().int().nullable(),
  driver_name: z.string().nullable(),
  attempt_no: z.number().int(),
  reason: z.string(),
  note: z.string().nullable(),
  failed_at: z.string(),
  status: z.string(),
  forced: z.boolean(),
});
export const FailedReportAnswer = z.object({
  success: z.boolean(),
  period,
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(FailedReportRow),
});

export const CompanyReportRow = z.object({
  company: z.number().int(),
  company_name: z.string().nullable(),
  created: z.number().int(),
  by_status: z.record(z.string(), z.number().int()),
  delivered: z.number().int(),
  failed: z.number().int(),
  first_attempt_success_rate: rate,
  on_time_rate: rate,
});
export const CompanyReportAnswer = z.object({ success: z.boolean(), period, count: z.number().int(), results: z.array(CompanyReportRow) });

/**
 * Planned against actual arrival (issue 31): per stop, actual arrival (the time the driver worked
 * the stop, less its time at the door) minus the arrival promised at commit. Grouped per route,
 * driver or day (the route's day, the depot's local day).
 */
export const ARRIVAL_GROUPS = ['route', 'driver', 'day'] as const;
export const ArrivalReportQuery = ReportQuery.extend({ by: z.enum(ARRIVAL_GROUPS).default('route') });
export const ArrivalExportQuery = ArrivalReportQuery.extend({ format: z.enum(EXPORT_FORMATS).default('csv') });
export const ArrivalRow = z.object({
  date: z.string().nullable(),
  driver: z.number().int().nullable(),
  driver_name: z.string().nullable(),
  route: z.number().int().nullable(),
  route_name: z.string().nullable(),
  /** Stops with a promised arrival and a real one. */
  stops: z.number().int(),
  /** Mean of |actual - planned|, minutes. */
  mean_abs_error_min: rate,
  /** 90th percentile (nearest rank) of |actual - planned|, minutes. */
  p90_abs_error_min: rate,
  /** Mean of actual - planned, minutes (positive = later than promised). */
  mean_error_min: rate,
  /** Stops that had a delivery window. */
  windowed: z.number().int(),
  /** Share of windowed stops reached inside their window (0..1). */
  in_window: rate,
  /** Share of stops reached inside the half-hour band the recipient was promised (0..1). */
  in_band: rate,
});
export type ArrivalRow = z.infer<typeof ArrivalRow>;
export const ArrivalReportAnswer = z.object({
  success: z.boolean(),
  period,
  by: z.enum(ARRIVAL_GROUPS),
  count: z.number().int(),
  results: z.array(ArrivalRow),
});
