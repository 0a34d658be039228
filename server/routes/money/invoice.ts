import { IdParams, pageOf } from '../../../shared/schemas/common';
import { GenerateInvoiceBody, Invoice, InvoiceDetails, InvoiceQuery, InvoiceStatusBody } from '../../../shared/schemas/money';
import { audit, changes } from '../../services/audit/record';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { csvFile } from '../../http/csvFile';
import { defineRoute } from '../../http/route';
import { loginCompany, requireMoneyStaff } from '../../services/money/access';
import { invoicesCsv } from '../../services/money/documents';
import { shareKey } from '../../services/workers/shareKey';
import { invoiceDetails, invoicePage, invoicesForCsv } from '../../services/money/invoiceList';
import { findInvoice, generateStatement, invoiceParties, setInvoiceStatus } from '../../services/money/invoices';
import { markPaid } from '../../services/money/payments';
import { invoiceLines, invoicesApi } from '../../services/money/shape';
import { businessZone } from '../../services/time/zones';

const tags = ['Invoice'];

export function invoiceRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/invoice/generate-invoice/',
      tags,
      access: 'invoice.manage',
      catalogue: ops('web/Invoice', 'Generate Invoice'),
      body: GenerateInvoiceBody,
      response: InvoiceDetails,
      status: 201,
      summary: "Issue a postpaid company's statement for a period",
      description:
        "Lists every charge and refund made in the period (inclusive local days of the business's time zone) that no statement documents yet; numbered without gaps (INV-YYYY-NNNNNN). 409 for a prepaid company or when there is nothing to invoice.",
    },
    async ({ deps, user, body }) => {
      requireMoneyStaff(user);
      const inv = await generateStatement(deps, user, body.company, body.period_from, body.period_to);
      await audit(deps.db, deps.clock.now(), user.id, 'invoice.issue', `invoice:${inv.id}`, changes(null, inv));
      return invoiceDetails(deps, inv);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/invoice/',
      tags,
      access: 'invoice.view',
      catalogue: ops('web/Invoice', 'Get'),
      query: InvoiceQuery,
      response: pageOf(Invoice),
      summary: 'List invoices, receipts and notes (a company sees its own)',
      description: 'Filters: company, kind (statement, receipt, adjustment), status, from/to (issue day), search (number).',
    },
    ({ deps, user, query, c }) => invoicePage(deps, user, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/invoice/prepaid-recharge/',
      tags,
      access: 'invoice.view',
      catalogue: ops('web/Invoice', 'Prepaid Recharge'),
      query: InvoiceQuery,
      response: pageOf(Invoice),
      summary: 'Receipts of prepaid recharges (a company sees its own)',
    },
    ({ deps, user, query, c }) => invoicePage(deps, user, { ...query, kind: 'receipt' }, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/invoice/csv-download/',
      tags,
      access: 'invoice.view',
      catalogue: ops('web/Wallet Adjustment', 'Invoice CSV Download'),
      query: InvoiceQuery,
      produces: 'text/csv',
      summary: 'Invoices as CSV (same filters as the list; a company gets its own)',
      description: 'Cells that could start a spreadsheet formula (= + - @) are prefixed with an apostrophe.',
    },
    async ({ deps, user, query }) => csvFile(invoicesCsv(await invoicesForCsv(deps, user, query)), 'invoices.csv'),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/invoice/login-company-csv-download/',
      tags,
      access: 'invoice.view',
      catalogue: ops('web/Wallet Adjustment', 'Login Company Invoice CSV Download'),
      query: InvoiceQuery,
      produces: 'text/csv',
      summary: "The logged-in company's invoices as CSV",
    },
    async ({ deps, user, query }) => {
      const companyId = loginCompany(user);
      return csvFile(invoicesCsv(await invoicesForCsv(deps, user, { ...query, company: companyId })), `invoices-${companyId}.csv`);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/invoice/{id}/',
      tags,
      access: 'invoice.view',
      catalogue: ops('web/Invoice', 'Get Invoice Details'),
      params: IdParams,
      response: InvoiceDetails,
      summary: 'An invoice with its lines',
    },
    async ({ deps, user, params }) => invoiceDetails(deps, await findInvoice(deps.db, user, params.id)),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/invoice/{id}/pdf/',
      tags,
      access: 'invoice.view',
      catalogue: [],
      params: IdParams,
      produces: 'application/pdf',
      summary: 'An invoice as PDF',
      description:
        'Drawn off the request thread in a bounded queue shared fairly between companies; when it is full the answer is 503 with Retry-After.',
    },
    async ({ deps, user, params }) => {
      const row = await findInvoice(deps.db, user, params.id);
      const api = (await invoicesApi(deps, [row]))[0];
      const bytes = await deps.pdfs.render(
        {
          kind: 'invoice',
          invoice: api,
          lines: await invoiceLines(deps.db, row.id),
          parties: await invoiceParties(deps.db, row),
          zone: await businessZone(deps),
        },
        shareKey(user),
      );
      return new Response(bytes, {
        headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${row.number}.pdf"` },
      });
    },
  );

  defineRoute(
    app,
    {
      method: ['post', 'patch'],
      path: '/invoice/{id}/status-change/',
      tags,
      access: 'invoice.manage',
      catalogue: ops('web/Wallet Adjustment', 'Invoice Status Change'),
      params: IdParams,
      body: InvoiceStatusBody,
      response: InvoiceDetails,
      summary: 'Mark an issued invoice paid or void',
      description:
        'issued -> paid records the payment of a statement in the wallet; issued -> void moves no money (correct it with a wallet adjustment). Anything else: 409 invalid_transition.',
    },
    async ({ deps, user, params, body }) => {
      requireMoneyStaff(user);
      const row = await findInvoice(deps.db, user, params.id);
      const updated =
        body.status === 'paid'
          ? await markPaid(deps, user, row, body.reference, body.note)
          : await setInvoiceStatus(deps, row, 'void', { reason: body.reason });
      // Paying a statement also moves money; this one line says so (the payment transaction is in `after`).
      await audit(deps.db, deps.clock.now(), user.id, `invoice.${body.status}`, `invoice:${row.id}`, {
        ...changes(row, updated),
        ...(body.status === 'void' ? { reason: body.reason } : { reference: body.reference }),
      });
      return invoiceDetails(deps, updated);
    },
  );
}
