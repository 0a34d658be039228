import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { pageOf } from '../../../shared/schemas/common';
import { Adjustment, AdjustmentAnswer, AdjustmentBody, AdjustmentQuery } from '../../../shared/schemas/money';
import { formatMinor } from '../../../shared/money';
import { invoice, invoiceLine, walletTxn } from '../../db/schema/index';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { pageLinks } from '../../resources/list';
import { companyFilter } from '../../services/money/access';
import { createAdjustment } from '../../services/money/adjustments';
import { audit } from '../../services/audit/record';
import { invoicesApi, txnsApi, walletApi } from '../../services/money/shape';

const g = 'web/Wallet Adjustment';
const tags = ['Wallet Adjustment'];

export function adjustmentRoutes(app: App): void {
  defineRoute(app, {
    method: 'post', path: '/wallet-adjustment/', tags, access: 'wallet.manage', catalogue: ops(g, 'Create Wallet Adjustment'),
    body: AdjustmentBody, response: AdjustmentAnswer, status: 201,
    summary: 'Credit or debit a company wallet, with a reason',
    description: 'Staff only. Appends an adjustment transaction (who, when, why) and issues a numbered adjustment note. A debit never takes a prepaid wallet below zero (409).',
  }, async ({ deps, user, body }) => {
    const r = await createAdjustment(deps, user, body);
    await audit(deps.db, deps.clock.now(), user.id, 'wallet.adjust', `wallet:${r.wallet.id}`, {
      company: body.company, direction: body.direction, amount_cents: body.amount_cents, reason: body.reason, transaction: r.transaction.id,
      before: { balance_cents: r.wallet.balance_cents - r.transaction.amount_cents }, after: { balance_cents: r.wallet.balance_cents },
    });
    return {
      success: true,
      message: `${body.direction === 'credit' ? 'Credited' : 'Debited'} ${formatMinor(body.amount_cents, r.wallet.currency)} ${r.wallet.currency}`,
      wallet: await walletApi(deps.db, r.wallet), transaction: (await txnsApi(deps.db, [r.transaction]))[0], note: (await invoicesApi(deps.db, [r.note]))[0],
    };
  });

  defineRoute(app, {
    method: 'get', path: '/wallet-adjustment/', tags, access: 'wallet.view', catalogue: ops(g, 'Adjustment Invoice List'),
    query: AdjustmentQuery, response: pageOf(Adjustment), summary: 'Adjustments with their notes, newest first (a company sees its own)',
  }, async ({ deps, user, query, c }) => {
    const own = companyFilter(user);
    const where = and(
      eq(invoice.kind, 'adjustment'), own != null ? eq(invoice.company_id, own) : undefined,
      query.company ? eq(invoice.company_id, query.company) : undefined,
    );
    const count = (await deps.db.select({ n: sql<number>`count(*)` }).from(invoice).where(where).get())?.n ?? 0;
    const notes = await deps.db.select().from(invoice).where(where).orderBy(desc(invoice.id))
      .limit(query.page_size).offset((query.page - 1) * query.page_size).all();
    const links = notes.length
      ? await deps.db.select({ invoice: invoiceLine.invoice_id, t: walletTxn }).from(invoiceLine).innerJoin(walletTxn, eq(walletTxn.id, invoiceLine.txn_id))
        .where(inArray(invoiceLine.invoice_id, notes.map((n) => n.id))).all()
      : [];
    const txnOf = new Map(links.map((l) => [l.invoice, l.t]));
    const shapedNotes = await invoicesApi(deps.db, notes);
    const results = [];
    for (const [i, n] of notes.entries()) {
      const t = txnOf.get(n.id);
      if (t) results.push({ transaction: (await txnsApi(deps.db, [t]))[0], note: shapedNotes[i] });
    }
    return { count, ...pageLinks(c.req.url, query.page, query.page_size, count), results };
  });
}
