import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { canDebit } from '../../shared/money';
import { atomically } from '../../server/db/atomically';
import { company, deliveryRate, pkg, user, wallet, walletTxn } from '../../server/db/schema/index';
import { ApiError } from '../../server/errors';
import type { SessionUser } from '../../server/services/auth/session';
import { createAdjustment } from '../../server/services/money/adjustments';
import { chargeForPackage, refundPackage } from '../../server/services/money/charges';
import { receivePayment } from '../../server/services/money/payments';
import { makeApp } from '../helpers/app';

type Op =
  | { kind: 'recharge'; co: number; amount: number }
  | { kind: 'charge'; co: number; kg: number }
  | { kind: 'refund'; nth: number }
  | { kind: 'adjust'; co: number; credit: boolean; amount: number };

const COMPANIES = 3;
const co = fc.integer({ min: 0, max: COMPANIES - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('recharge' as const), co, amount: fc.integer({ min: 1, max: 5000 }) }),
  fc.record({ kind: fc.constant('charge' as const), co, kg: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ kind: fc.constant('charge' as const), co, kg: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ kind: fc.constant('refund' as const), nth: fc.nat(50) }),
  fc.record({ kind: fc.constant('adjust' as const), co, credit: fc.boolean(), amount: fc.integer({ min: 1, max: 3000 }) }),
);

/**
 * Random sequences of recharges, charges, refunds and adjustments run through the real services on
 * a real database, next to a tiny model that predicts which are accepted.
 */
describe('ledger property (real database)', () => {
  it('balances are the sums of their transactions, prepaid never below zero, and all wallets = money in - money out', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 4000 }), async (ops, limit) => {
        const t = await makeApp();
        const now = t.clock.now();
        const adminId = (
          await t.db
            .insert(user)
            .values({ name: 'A', email: 'a@x.test', role: 'admin', created_at: now, updated_at: now })
            .returning()
            .get()
        ).id;
        const admin: SessionUser = {
          id: adminId,
          name: 'A',
          email: 'a@x.test',
          role: 'admin',
          companyId: null,
          tokenId: 0,
          permissions: new Set(),
        };
        const billing = ['prepaid', 'postpaid', 'prepaid'] as const;
        const companies: number[] = [];
        for (const b of billing) {
          const id = await t.company();
          await t.db.update(company).set({ billing_type: b }).where(eq(company.id, id)).run();
          companies.push(id);
        }
        // Company 1 is postpaid with a credit limit; charges cost 100 per started kilogram.
        await t.db
          .insert(wallet)
          .values({ company_id: companies[1], currency: 'AUD', credit_limit_cents: limit, created_at: now, updated_at: now })
          .run();
        await t.db
          .insert(deliveryRate)
          .values({ base_cents: 0, per_unit_cents: 100, currency: 'AUD', created_at: now, updated_at: now })
          .run();

        const model = companies.map(() => 0);
        const charged: { pkgId: number; co: number; amount: number; refunded: boolean }[] = [];
        let moneyIn = 0;
        let moneyOut = 0;
        let n = 0;
        const attempt = async (fn: () => Promise<unknown>): Promise<boolean> => {
          try {
            await atomically(t.app.deps, fn);
            return true;
          } catch (err) {
            if (err instanceof ApiError && err.status === 409) return false;
            throw err;
          }
        };
        const state = (i: number) => ({ billing: billing[i], balance_cents: model[i], credit_limit_cents: i === 1 ? limit : null });

        for (const o of ops) {
          if (o.kind === 'recharge') {
            expect(
              await attempt(async () =>
                receivePayment(t.app.deps, admin, companies[o.co], billing[o.co], { amount_cents: o.amount, reference: '', note: '' }),
              ),
            ).toBe(true);
            model[o.co] += o.amount;
            moneyIn += o.amount;
          } else if (o.kind === 'charge') {
            const price = o.kg * 100;
            const expected = canDebit(state(o.co), price);
            let pkgId = 0;
            const ok = await attempt(async () => {
              n += 1;
              const row = await t.db
                .insert(pkg)
                .values({ hawb: `P${n}`, company_id: companies[o.co], weight: o.kg, created_at: now, updated_at: now })
                .returning()
                .get();
              pkgId = row.id;
              await chargeForPackage(t, companies[o.co], row, adminId);
            });
            expect(ok).toBe(expected);
            if (ok) {
              model[o.co] -= price;
              moneyOut += price;
              charged.push({ pkgId, co: o.co, amount: price, refunded: false });
            }
          } else if (o.kind === 'refund') {
            if (!charged.length) continue;
            const c = charged[o.nth % charged.length];
            const row = await t.db.select().from(pkg).where(eq(pkg.id, c.pkgId)).get();
            if (!row) throw new Error('package missing');
            let refund: unknown = null;
            expect(
              await attempt(async () => {
                refund = await refundPackage(t, row, adminId);
              }),
            ).toBe(true);
            expect(refund == null).toBe(c.refunded);
            if (!c.refunded) {
              model[c.co] += c.amount;
              moneyIn += c.amount;
              c.refunded = true;
            }
          } else {
            const expected = o.credit || billing[o.co] === 'postpaid' || canDebit(state(o.co), o.amount);
            const ok = await attempt(() =>
              createAdjustment(t.app.deps, admin, {
                company: companies[o.co],
                direction: o.credit ? 'credit' : 'debit',
                amount_cents: o.amount,
                reason: 'prop',
              }),
            );
            expect(ok).toBe(expected);
            if (ok) {
              model[o.co] += o.credit ? o.amount : -o.amount;
              if (o.credit) moneyIn += o.amount;
              else moneyOut += o.amount;
            }
          }
        }

        let total = 0;
        for (const [i, id] of companies.entries()) {
          const w = await t.db.select().from(wallet).where(eq(wallet.company_id, id)).get();
          const txns = await t.db.select().from(walletTxn).where(eq(walletTxn.company_id, id)).orderBy(walletTxn.id).all();
          let running = 0;
          for (const x of txns) {
            running += x.amount_cents;
            expect(x.balance_after_cents).toBe(running);
            if (billing[i] === 'prepaid') expect(x.balance_after_cents).toBeGreaterThanOrEqual(0);
          }
          expect(w?.balance_cents ?? 0).toBe(running);
          expect(running).toBe(model[i]);
          total += running;
        }
        expect(total).toBe(moneyIn - moneyOut);
        await t.db.$engine.close();
      }),
      { numRuns: 40 },
    );
    // 40 fresh databases: on PostgreSQL each is a copy of the migrated template, about half a second.
  }, 120_000);
});
