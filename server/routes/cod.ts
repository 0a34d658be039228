import { z } from 'zod';
import {
  CodPosition,
  CodReport,
  CodReportQuery,
  CodWaiveBody,
  DriverCash,
  DriverCashQuery,
  FloatBody,
  Handover,
  HandoverBody,
  PackageCod,
  PayoutBody,
} from '../../shared/schemas/cod';
import { IdParams } from '../../shared/schemas/common';
import type { Role } from '../../shared/roles';
import { forbidden } from '../errors';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { iso } from '../clock';
import { dayOf, driverCash, handOver, handoverJson, issueFloat } from '../services/cod/cash';
import { codJson, codRow, waiveCod } from '../services/cod/parcel';
import { codReport } from '../services/cod/report';
import { codPosition, payOut } from '../services/cod/settle';
import { actionParcel } from '../services/packages/deliver';
import { findCompanyInScope, requireMoneyStaff } from '../services/money/access';
import { livePackage } from '../services/history/live';

const tags = ['Cash on delivery'];
const OFFICE: readonly Role[] = ['super_admin', 'admin', 'supervisor', 'depot_manager'];

/** Cash on delivery (issue 34, docs/decisions-cod.md): the parcel's amount, waivers, the driver's cash, pay-outs and reports. */
export function codRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/{id}/cod/',
      tags,
      access: 'authenticated',
      catalogue: [],
      params: IdParams,
      response: z.object({ cod: PackageCod.nullable() }),
      summary: "A parcel's amount to collect on delivery, its waiver and what was collected",
    },
    async ({ deps, user, params }) => {
      const row = user.role === 'driver' ? await actionParcel(deps.db, user, params.id) : await livePackage(deps.db, user, params.id);
      const cod = await codRow(deps.db, row.id);
      return { cod: cod ? codJson(cod) : null };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package/{id}/cod/waive/',
      tags,
      access: { roles: OFFICE },
      catalogue: [],
      params: IdParams,
      body: CodWaiveBody,
      response: z.object({ cod: PackageCod }),
      summary: 'The office waives what the driver cannot collect (audited); the delivery then needs only the rest',
    },
    async ({ deps, user, params, body }) => ({
      cod: codJson(await waiveCod(deps, user.id, await livePackage(deps.db, user, params.id), body)),
    }),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/cod/float/',
      tags,
      access: { roles: OFFICE },
      catalogue: [],
      body: FloatBody,
      status: 201,
      response: DriverCash,
      summary: "The depot hands a driver a cash float for the day (the business's local day unless named)",
    },
    async ({ deps, user, body }) => {
      await issueFloat(deps, user.id, body, body.currency);
      return driverCash(deps, body.driver, await dayOf(deps, body.day), body.currency);
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/cod/handover/',
      tags,
      access: { roles: OFFICE },
      catalogue: [],
      body: HandoverBody,
      status: 201,
      response: Handover,
      summary: "The depot counts a driver's cash for the day; a difference is posted against the driver and audited",
    },
    async ({ deps, user, body }) => {
      const row = await handOver(deps, user.id, body, body.currency);
      return handoverJson(row, (await driverCash(deps, row.driver_id, row.day, row.currency)).float_cents);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/cod/driver-cash/',
      tags,
      access: 'authenticated',
      catalogue: [],
      query: DriverCashQuery,
      response: DriverCash,
      summary: "A driver's cash for a day: float, collected (cash, card), hand-over, what the driver holds and owes",
    },
    async ({ deps, user, query }) => {
      const driver = user.role === 'driver' ? user.id : query.driver;
      if (driver == null || (user.role !== 'driver' && !OFFICE.includes(user.role)))
        throw forbidden("Name a driver; only drivers and the office see drivers' cash");
      if (user.role === 'driver' && query.driver != null && query.driver !== user.id) throw forbidden('A driver sees only their own cash');
      return driverCash(deps, driver, await dayOf(deps, query.day), query.currency);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/cod/company/{id}/',
      tags,
      access: 'wallet.view',
      catalogue: [],
      params: IdParams,
      response: CodPosition,
      summary: 'What the courier owes a company for cash collected on its parcels: collected, netted on statements, paid out, still owed',
    },
    async ({ deps, user, params }) => {
      await findCompanyInScope(deps.db, user, params.id);
      return codPosition(deps.db, params.id);
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/cod/payout/',
      tags,
      access: 'wallet.manage',
      catalogue: [],
      body: PayoutBody,
      status: 201,
      response: z.object({ id: z.number().int(), amount_cents: z.number().int(), created_at: z.string(), position: CodPosition }),
      summary: 'Pays a company what it is owed for cash on delivery (a cod_payout debit of its wallet; never more than owed); audited',
    },
    async ({ deps, user, body }) => {
      requireMoneyStaff(user);
      const txn = await payOut(deps, user.id, body);
      return {
        id: txn.id,
        amount_cents: txn.amount_cents,
        created_at: iso(txn.created_at) ?? '',
        position: await codPosition(deps.db, body.company),
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/cod/report/',
      tags,
      access: { roles: OFFICE },
      catalogue: [],
      query: CodReportQuery,
      response: CodReport,
      summary:
        'Cash on delivery per business-local day and driver: collected, waived, handed over (and its difference), owed to shippers and paid out',
    },
    ({ deps, query }) => codReport(deps, query),
  );
}
