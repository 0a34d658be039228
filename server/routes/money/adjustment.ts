import { pageOf } from '../../../shared/schemas/common';
import { Adjustment, AdjustmentAnswer, AdjustmentBody, AdjustmentQuery } from '../../../shared/schemas/money';
import { formatMinor } from '../../../shared/money';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { adjustmentPage, createAdjustment } from '../../services/money/adjustments';
import { audit } from '../../services/audit/record';
import { invoicesApi, txnsApi, walletApi } from '../../services/money/shape';

const g = 'web/Wallet Adjustment';
const tags = ['Wallet Adjustment'];

export function adjustmentRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/wallet-adjustment/',
      tags,
      access: 'wallet.manage',
      catalogue: ops(g, 'Create Wallet Adjustment'),
      body: AdjustmentBody,
      response: AdjustmentAnswer,
      status: 201,
      summary: 'Credit or debit a company wallet, with a reason',
      description:
        'Staff only. Appends an adjustment transaction (who, when, why) and issues a numbered adjustment note. A debit never takes a prepaid wallet below zero (409).',
    },
    async ({ deps, user, body }) => {
      const r = await createAdjustment(deps, user, body);
      await audit(deps.db, deps.clock.now(), user.id, 'wallet.adjust', `wallet:${r.wallet.id}`, {
        company: body.company,
        direction: body.direction,
        amount_cents: body.amount_cents,
        reason: body.reason,
        transaction: r.transaction.id,
        before: { balance_cents: r.wallet.balance_cents - r.transaction.amount_cents },
        after: { balance_cents: r.wallet.balance_cents },
      });
      return {
        success: true,
        message: `${body.direction === 'credit' ? 'Credited' : 'Debited'} ${formatMinor(body.amount_cents, r.wallet.currency)} ${r.wallet.currency}`,
        wallet: await walletApi(deps.db, r.wallet),
        transaction: (await txnsApi(deps.db, [r.transaction]))[0],
        note: (await invoicesApi(deps, [r.note]))[0],
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/wallet-adjustment/',
      tags,
      access: 'wallet.view',
      catalogue: ops(g, 'Adjustment Invoice List'),
      query: AdjustmentQuery,
      response: pageOf(Adjustment),
      summary: 'Adjustments with their notes, newest first (a company sees its own)',
    },
    ({ deps, user, query, c }) => adjustmentPage(deps, user, query, c.req.url),
  );
}
