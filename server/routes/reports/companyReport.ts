import { PACKAGE_STATUSES } from '../../../shared/lifecycle';
import { PackageListAnswer } from '../../../shared/schemas/package';
import { CompanyReportAnswer, ExportQuery, KpiAnswer, PagedReportQuery, PodQuery, ReportQuery } from '../../../shared/schemas/reports';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { pageLinks } from '../../resources/list';
import { companyReport } from '../../services/reports/company';
import { companyColumns, kpiColumns, packageColumns } from '../../services/reports/columns';
import { exportResponse, pagesOf } from '../../services/reports/export';
import { companyName, kpis } from '../../services/reports/kpi';
import { periodOf, reportFilter } from '../../services/reports/period';
import { podPdf } from '../../services/reports/pod';
import { countDeliveries, countPackages, packageListPage, packagePages } from '../../services/reports/rows';
import { packagesFor } from '../../services/geo/senderView';
import { EXPORT_DOC, FILTER_DOC, pageOfList, stamp, tags } from './common';

const cr = (...names: string[]) => ops('web/Company/Company Report', ...names);
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function companyReportRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/company/',
      tags,
      access: 'report.view',
      query: ReportQuery,
      response: CompanyReportAnswer,
      catalogue: cr('Company Report'),
      summary: 'Per company: parcels created in the period by current status, deliveries and failures',
      description: `\`by_status\` counts parcels created in the period by the status they are in now; delivered, failed and the rates count what happened in the period. ${FILTER_DOC}`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      const results = await companyReport(deps.db, f);
      return { success: true, period: periodOf(f), count: results.length, results };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/company/excel-download/',
      tags,
      access: 'report.view',
      query: ExportQuery,
      produces: XLSX,
      catalogue: cr('Company Excel Download'),
      summary: 'The company report as a spreadsheet',
      description: `${FILTER_DOC} ${EXPORT_DOC}`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      const rows = await companyReport(deps.db, f);
      return exportResponse({
        format: query.format,
        filename: `companies_${stamp(f)}`,
        sheet: 'Companies',
        columns: companyColumns(PACKAGE_STATUSES),
        total: rows.length,
        next: pagesOf(rows),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/company-kpi/',
      tags,
      access: 'report.view',
      query: PagedReportQuery,
      response: KpiAnswer,
      catalogue: cr('Company KPI Report'),
      summary: 'Delivery KPIs by day and company',
      description: `The driver KPIs (see report/driver-kpi/) grouped by the parcels' company. ${FILTER_DOC}`,
    },
    async ({ deps, user, query, c }) => {
      const f = await reportFilter(deps, user, query);
      return { success: true, period: periodOf(f), ...pageOfList(c, await kpis(deps.db, f, 'company', true), query.page, query.page_size) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/company-kpi/excel-download/',
      tags,
      access: 'report.view',
      query: ExportQuery,
      produces: XLSX,
      catalogue: cr('Company KPI Excel'),
      summary: 'Company KPIs by day as a spreadsheet',
      description: `${FILTER_DOC} ${EXPORT_DOC}`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      const rows = await kpis(deps.db, f, 'company', true);
      return exportResponse({
        format: query.format,
        filename: `company-kpi_${stamp(f)}`,
        sheet: 'Company KPI',
        columns: kpiColumns('company', true),
        total: rows.length,
        next: pagesOf(rows),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/company/package-list/',
      tags,
      access: 'report.view',
      query: PagedReportQuery,
      response: PackageListAnswer,
      catalogue: cr('Login Company Package List'),
      summary: "The logged-in company's packages created in a period",
      description: `Package records (spec 2.1) in id order. A company login gets its own; staff may name \`company\`. ${FILTER_DOC}`,
    },
    async ({ deps, user, query, c }) => {
      const f = await reportFilter(deps, user, query);
      const total = await countPackages(deps.db, f);
      return {
        count: total,
        ...pageLinks(c.req.url, query.page, query.page_size, total),
        results: await packagesFor(deps.db, user, await packageListPage(deps.db, f, query.page, query.page_size)),
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/company/package-excel-download/',
      tags,
      access: 'report.view',
      query: ExportQuery,
      produces: XLSX,
      catalogue: cr('Company Package Excel Download'),
      summary: 'Packages created in a period as a spreadsheet (streamed)',
      description: `${FILTER_DOC} ${EXPORT_DOC}`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      return exportResponse({
        format: query.format,
        filename: `packages_${stamp(f)}`,
        sheet: 'Packages',
        columns: packageColumns,
        total: await countPackages(deps.db, f),
        next: packagePages(deps.db, f),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/company/pod-report/',
      tags,
      access: 'report.view',
      query: PodQuery,
      produces: 'application/pdf',
      catalogue: cr('Company POD Report'),
      summary: 'Proof of delivery of a period as a PDF (photos and signatures)',
      description: `One block per delivery (oldest first) with its details and thumbnails of its photos and signature. \`page_size\` deliveries per PDF (default 300, at most 1000), \`page\` picks which; \`X-Total-Rows\` gives the number of deliveries so a client knows how many PDFs there are. JPEG/PNG images up to 1.5 MB are embedded (scaled to thumbnails); larger or other images, and images past 80 MB per PDF, are listed instead. ${FILTER_DOC}`,
    },
    async ({ deps, user, query }) => {
      const f = await reportFilter(deps, user, query);
      const total = await countDeliveries(deps.db, f);
      const who = f.companyId != null ? ((await companyName(deps.db, f.companyId)) ?? `Company ${f.companyId}`) : 'All companies';
      const body = podPdf(deps, { filter: f, title: `Proof of delivery: ${who}`, page: query.page, pageSize: query.page_size, total });
      const pages = Math.max(1, Math.ceil(total / query.page_size));
      return new Response(body, {
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="pod_${stamp(f)}_${query.page}-of-${pages}.pdf"`,
          'cache-control': 'no-store',
          'x-total-rows': String(total),
          'x-total-pages': String(pages),
          'access-control-expose-headers': 'X-Total-Rows, X-Total-Pages, Content-Disposition',
        },
      });
    },
  );
}
