import { ArrivalExportQuery, ArrivalReportAnswer, ArrivalReportQuery, type ArrivalRow } from '../../../shared/schemas/reports';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { arrivalReport } from '../../services/reports/arrivals';
import { exportResponse, pagesOf, type Column } from '../../services/reports/export';
import { periodOf, reportFilter } from '../../services/reports/period';
import { STAFF } from '../routes/common';
import { EXPORT_DOC, stamp, tags } from './common';

const DOC =
  "Planned against actual arrival (issue 31): for each stop of a delivery route committed from a plan and worked on the route's " +
  "day, its error is the real arrival (the time the driver recorded the delivery or failed attempt, less the stop's time at the door) minus " +
  'the arrival promised at commit. Per group: stops, mean and 90th percentile (nearest rank) of the absolute error and the mean signed error ' +
  'in minutes, the share of windowed stops reached inside their window and the share of stops reached inside the half-hour band the recipient ' +
  "was told. `by=route|driver|day` (days are the routes' days, the depot's local days); `from`/`to` are those days, both included; `driver` filters. Staff only.";

const columns: Column<ArrivalRow>[] = [
  { header: 'Day', value: (r) => r.date, width: 12 },
  { header: 'Driver id', value: (r) => r.driver },
  { header: 'Driver', value: (r) => r.driver_name, width: 18 },
  { header: 'Route id', value: (r) => r.route },
  { header: 'Route', value: (r) => r.route_name, width: 24 },
  { header: 'Stops', value: (r) => r.stops },
  { header: 'Mean |error| (min)', value: (r) => r.mean_abs_error_min },
  { header: 'P90 |error| (min)', value: (r) => r.p90_abs_error_min },
  { header: 'Mean error (min, + = late)', value: (r) => r.mean_error_min },
  { header: 'Stops with a window', value: (r) => r.windowed },
  { header: 'Inside window', value: (r) => r.in_window },
  { header: 'Inside promised band', value: (r) => r.in_band },
];

export function arrivalReportRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/arrival-accuracy/',
      tags,
      access: { roles: STAFF },
      catalogue: [],
      query: ArrivalReportQuery,
      response: ArrivalReportAnswer,
      summary: 'Planned against actual arrival times per route, driver or day',
      description: DOC,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      const results = await arrivalReport(deps, f, query.by);
      return { success: true, period: periodOf(f), by: query.by, count: results.length, results };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/arrival-accuracy/export/',
      tags,
      access: { roles: STAFF },
      catalogue: [],
      query: ArrivalExportQuery,
      produces: 'text/csv',
      summary: 'The planned-against-actual arrival report as a file (CSV by default)',
      description: `${DOC} ${EXPORT_DOC}`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      const rows = await arrivalReport(deps, f, query.by);
      return exportResponse({
        format: query.format,
        filename: `arrival-accuracy_${query.by}_${stamp(f)}`,
        sheet: 'Arrival accuracy',
        columns,
        total: rows.length,
        next: pagesOf(rows),
      });
    },
  );
}
