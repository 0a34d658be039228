import { CsvExportQuery, ExportQuery, FailedReportAnswer, KpiAnswer, PagedReportQuery, ReportQuery } from '../../../shared/schemas/reports';
import { z } from 'zod';
import { KpiRow } from '../../../shared/schemas/reports';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { pageLinks } from '../../resources/list';
import { attemptColumns, deliveryColumns, kpiColumns } from '../../services/reports/columns';
import { exportResponse, pagesOf } from '../../services/reports/export';
import { kpis } from '../../services/reports/kpi';
import { periodOf, reportFilter } from '../../services/reports/period';
import { attemptPage, countAttempts, countDeliveries, deliveryPage, keyset, shapeAttempt } from '../../services/reports/rows';
import { EXPORT_DOC, FILTER_DOC, pageOfList, stamp, tags } from './common';

const rr = (...names: string[]) => ops('web/Return Report', ...names);
const KPI_DOC =
  "Delivered and failed are deliveries and failed attempts made that day. First-attempt success rate: of the parcels' first " +
  "attempts made that day (a delivery with no failure before it, or a parcel's earliest failed attempt), the share delivered. " +
  'On-time rate: of deliveries of parcels with a delivery_date, the share made on or before that day. Parcels per hour: deliveries ' +
  "divided by the hours between the day's first and last delivery (null with fewer than two distinct times). Rates are 0..1, null without a base.";

export function returnReportRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/delivery/excel-download/',
      tags,
      access: 'report.view',
      query: ExportQuery,
      produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      catalogue: rr('Delivery Report/Excel Download'),
      summary: 'Deliveries of a period as a spreadsheet (streamed)',
      description: `One row per delivery made in the period, with the failed attempts before it and whether it was on time. ${FILTER_DOC} ${EXPORT_DOC}`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      return exportResponse({
        format: query.format,
        filename: `deliveries_${stamp(f)}`,
        sheet: 'Deliveries',
        columns: deliveryColumns(f.zone),
        total: await countDeliveries(deps.db, f),
        next: keyset(async (after) => await deliveryPage(deps.db, f, after)),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/delivery/failed-report/',
      tags,
      access: 'report.view',
      query: PagedReportQuery,
      response: FailedReportAnswer,
      catalogue: rr('Delivery Report/Failed Report'),
      summary: 'Failed delivery attempts of a period',
      description: `One row per failed attempt (oldest first) with its reason and the parcel's current status. ${FILTER_DOC} The same rows as a file: \`report/delivery/failed-report/excel-download/\`.`,
    },
    async ({ deps, user, query, c }) => {
      const f = await reportFilter(deps, user, query);
      const total = await countAttempts(deps.db, f);
      const rows = await attemptPage(deps.db, f, 0, query.page_size, (query.page - 1) * query.page_size);
      return {
        success: true,
        period: periodOf(f),
        count: total,
        ...pageLinks(c.req.url, query.page, query.page_size, total),
        results: rows.map(shapeAttempt),
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/delivery/failed-report/excel-download/',
      tags,
      access: 'report.view',
      query: ExportQuery,
      produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      catalogue: [],
      summary: 'Failed delivery attempts of a period as a spreadsheet (streamed)',
      description: `${FILTER_DOC} ${EXPORT_DOC}`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      return exportResponse({
        format: query.format,
        filename: `failed_${stamp(f)}`,
        sheet: 'Failed attempts',
        columns: attemptColumns,
        total: await countAttempts(deps.db, f),
        next: keyset(async (after) => await attemptPage(deps.db, f, after)),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/driver/delivery-report/',
      tags,
      access: 'report.view',
      query: ReportQuery,
      response: z.object({
        success: z.boolean(),
        period: z.object({ from: z.string(), to: z.string(), time_zone: z.string(), utc_offset: z.number() }),
        count: z.number().int(),
        results: z.array(KpiRow),
      }),
      catalogue: rr('Driver Report/Delivery Report'),
      summary: 'Per driver: deliveries, failures and rates over the period',
      description: `The KPIs of the driver KPI report over the whole period instead of by day (\`date\` is null). ${KPI_DOC} ${FILTER_DOC}`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      const results = await kpis(deps.db, f, 'driver', false);
      return { success: true, period: periodOf(f), count: results.length, results };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/driver/excel-download/',
      tags,
      access: 'report.view',
      query: ExportQuery,
      produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      catalogue: rr('Driver Report/Excel Download'),
      summary: 'The driver report as a spreadsheet',
      description: `${FILTER_DOC} ${EXPORT_DOC}`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      const rows = await kpis(deps.db, f, 'driver', false);
      return exportResponse({
        format: query.format,
        filename: `drivers_${stamp(f)}`,
        sheet: 'Drivers',
        columns: kpiColumns('driver', false),
        total: rows.length,
        next: pagesOf(rows),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/driver-kpi/',
      tags,
      access: 'report.view',
      query: PagedReportQuery,
      response: KpiAnswer,
      catalogue: rr('Driver Kpi Report'),
      summary: 'Driver KPIs by day and driver',
      description: `${KPI_DOC} ${FILTER_DOC} Rows by date, then driver name; paged.`,
    },
    async ({ deps, user, query, c }) => {
      const f = await reportFilter(deps, user, query);
      return { success: true, period: periodOf(f), ...pageOfList(c, await kpis(deps.db, f, 'driver', true), query.page, query.page_size) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/driver-kpi/csv/',
      tags,
      access: 'report.view',
      query: CsvExportQuery,
      produces: 'text/csv',
      catalogue: rr('Kpi Report CSV'),
      summary: 'Driver KPIs by day and driver as CSV',
      description: `${KPI_DOC} ${FILTER_DOC} ${EXPORT_DOC} Default format csv.`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      const rows = await kpis(deps.db, f, 'driver', true);
      return exportResponse({
        format: query.format,
        filename: `driver-kpi_${stamp(f)}`,
        sheet: 'Driver KPI',
        columns: kpiColumns('driver', true),
        total: rows.length,
        next: pagesOf(rows),
      });
    },
  );
}
