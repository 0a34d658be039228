import fc from 'fast-check';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { atomically } from '../../server/db/atomically';
import { cashHandover, company, deliveryRate, driverCashTxn, packageCod, pkg, user, wallet, walletTxn } from '../../server/db/schema/index';
import { ApiError } from '../../server/errors';
import { handOver, issueFloat } from '../../server/services/cod/cash';
import { collectionDue, recordCollection, setCodAmount, waiveCod } from '../../server/services/cod/parcel';
import { codPosition, payOut } from '../../server/services/cod/settle';
import { chargeForPackage } from '../../server/services/money/charges';
import { transition } from '../../server/services/packages/lifecycle';
import { makeApp } from '../helpers/app';

type Op =
  | { kind: 'create'; co: number; amount: number }
  | { kind: 'waive'; nth: number; part: number }
  | { kind: 'collect'; nth: number; driver: number; less: number; card: boolean }
  | { kind: 'cancel'; nth: number }
  | { kind: 'float'; driver: number; amount: number }
  | { kind: 'handover'; driver: number; delta: number }
  | { kind: 'payout'; co: number; amount: number };

const co = fc.integer({ min: 0, max: 1 });
const driver = fc.integer({ min: 0, max: 1 });
const nth = fc.nat(30);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), co, amount: fc.integer({ min: 1, max: 9000 }) }),
  fc.record({ kind: fc.constant('create' as const), co, amount: fc.integer({ min: 1, max: 9000 }) }),
  fc.record({ kind: fc.constant('waive' as const), nth, part: fc.integer({ min: 1, max: 9000 }) }),
  fc.record({
    kind: fc.constant('collect' as const),
    nth,
    driver,
    less: fc.oneof(fc.constant(0), fc.integer({ min: -50, max: 3000 })),
    card: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('collect' as const), nth, driver, less: fc.constant(0), card: fc.boolean() }),
  fc.record({ kind: fc.constant('cancel' as const), nth }),
  fc.record({ kind: fc.constant('float' as const), driver, amount: fc.integer({ min: 1, max: 5000 }) }),
  fc.record({ kind: fc.constant('handover' as const), driver, delta: fc.integer({ min: -2000, max: 500 }) }),
  fc.record({ kind: fc.constant('payout' as const), co, amount: fc.integer({ min: 1, max: 20000 }) }),
);

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

/**
 * Random days of cash on delivery through the real services on a real database (issue 34): parcels
 * with amounts (charged), waivers, collections (full, short, over; cash or card), cancellations
 * (refunding the charge), floats, hand-overs with differences and pay-outs. The ledgers balance.
 */
// Both engines. It once "did not finish" on PostgreSQL: no hang, but a failing case (a cancelled parcel's amount could
// be waived) that fast-check then shrank through hundreds of runs, each on a fresh PostgreSQL database. On PostgreSQL
// a failure now ends the run at once with its counterexample; replay it on SQLite (COD_SEED, COD_PATH), where
// shrinking is cheap.
const onPostgres = !!process.env.TEST_DATABASE_URL;
const replay = process.env.COD_SEED ? { seed: Number(process.env.COD_SEED), path: process.env.COD_PATH } : {};
describe('cash on delivery ledger property (real database)', () => {
  it('wallets are the sums of their transactions; shippers are owed exactly what was collected less what was paid; every cent of cash is held, handed over or owed by a driver', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        const t = await makeApp();
        const deps = t.app.deps;
        const now = t.clock.now();
        const adminId = (
          await t.db
            .insert(user)
            .values({ name: 'A', email: 'a@x.test', role: 'admin', created_at: now, updated_at: now })
            .returning()
            .get()
        ).id;
        const drivers = [await t.login('driver'), await t.login('driver')].map((d) => d.id);
        const companies = [await t.company(), await t.company()];
        await t.db.update(company).set({ billing_type: 'postpaid' }).where(eq(company.id, companies[1]!)).run();
        await t.db.update(company).set({ billing_type: 'prepaid' }).where(eq(company.id, companies[0]!)).run();
        // The prepaid shipper starts with money for its charges; each parcel costs 500.
        await t.db
          .insert(wallet)
          .values({ company_id: companies[0]!, currency: 'AUD', balance_cents: 0, created_at: now, updated_at: now })
          .run();
        await t.db.insert(deliveryRate).values({ base_cents: 500, currency: 'AUD', created_at: now, updated_at: now }).run();
        await atomically(deps, async () => {
          const { append } = await import('../../server/services/money/wallets');
          const w = await t.db.select().from(wallet).where(eq(wallet.company_id, companies[0]!)).get();
          await append(deps, w!.id, { kind: 'recharge', amount_cents: 1_000_000 });
        });

        const parcels: { id: number; co: number; amount: number; waived: number; collected: number | null; cancelled: boolean }[] = [];
        const paidModel = [0, 0];
        let n = 0;
        const attempt = async (fn: () => Promise<unknown>): Promise<boolean> => {
          try {
            await atomically(deps, fn);
            return true;
          } catch (err) {
            if (err instanceof ApiError && (err.status === 409 || err.status === 400)) return false;
            throw err;
          }
        };
        for (const o of ops) {
          if (o.kind === 'create') {
            n += 1;
            const id = await atomically(deps, async () => {
              const row = await t.db
                .insert(pkg)
                .values({
                  hawb: `C${n}`,
                  company_id: companies[o.co],
                  weight: 1,
                  status: 'out_for_delivery',
                  created_at: now,
                  updated_at: now,
                })
                .returning()
                .get();
              await chargeForPackage(deps, row.company_id, row, adminId);
              await setCodAmount(t.db, t.clock.now(), row, o.amount);
              return row.id;
            });
            // After the unit: a unit run again (PostgreSQL's SERIALIZABLE retry) must not add the parcel twice.
            parcels.push({ id, co: o.co, amount: o.amount, waived: 0, collected: null, cancelled: false });
          } else if (o.kind === 'waive') {
            const p = parcels[o.nth % Math.max(parcels.length, 1)];
            if (!p) continue;
            const ok = await attempt(() =>
              waiveCod(deps, adminId, { id: p.id, hawb: `C${p.id}`, company_id: companies[p.co]! }, { reason: 'r', amount_cents: o.part }),
            );
            expect(ok).toBe(p.collected == null && !p.cancelled && o.part <= p.amount - p.waived);
            if (ok) p.waived += o.part;
          } else if (o.kind === 'collect') {
            const p = parcels[o.nth % Math.max(parcels.length, 1)];
            if (!p || p.cancelled || p.collected != null) continue;
            const pay = p.amount - p.waived - o.less;
            const collection = { amount_cents: Math.max(0, pay), method: o.card ? ('card' as const) : ('cash' as const) };
            const ok = await attempt(async () => {
              const row = { id: p.id, hawb: `C${p.id}`, company_id: companies[p.co]! };
              const due = await collectionDue(t.db, row, collection);
              await t.db.update(pkg).set({ status: 'delivered', delivered_at: t.clock.now() }).where(eq(pkg.id, p.id)).run();
              if (due) await recordCollection(deps, due, collection, drivers[o.driver]!, t.clock.now());
            });
            const fits = collection.amount_cents >= p.amount - p.waived && collection.amount_cents <= p.amount;
            expect(ok).toBe(fits);
            if (ok) p.collected = collection.amount_cents;
          } else if (o.kind === 'cancel') {
            const p = parcels[o.nth % Math.max(parcels.length, 1)];
            if (!p || p.cancelled || p.collected != null) continue;
            await atomically(deps, async () => {
              const row = await t.db.select().from(pkg).where(eq(pkg.id, p.id)).get();
              await transition(t.db, t.clock.now(), row!, 'cancelled', 'cancel', { userId: adminId }, {}, {}, { force: true });
            });
            p.cancelled = true;
          } else if (o.kind === 'float') {
            await attempt(() => issueFloat(deps, adminId, { driver: drivers[o.driver]!, amount_cents: o.amount }, 'AUD'));
          } else if (o.kind === 'handover') {
            const expected = Number(
              (
                await t.db
                  .select({ s: sql<number>`coalesce(sum(${driverCashTxn.amount_cents}), 0)` })
                  .from(driverCashTxn)
                  .where(and(eq(driverCashTxn.driver_id, drivers[o.driver]!), eq(driverCashTxn.account, 'cash')))
                  .get()
              )?.s ?? 0,
            );
            await attempt(() =>
              handOver(deps, adminId, { driver: drivers[o.driver]!, counted_cents: Math.max(0, expected + o.delta) }, 'AUD'),
            );
            // A new day after each hand-over, so the next one counts that day.
            t.clock.advance(86_400_000);
          } else {
            const owed = (await codPosition(t.db, companies[o.co]!)).owed_cents;
            const ok = await attempt(() => payOut(deps, adminId, { company: companies[o.co]!, amount_cents: o.amount }));
            // A pay-out never exceeds what is owed; the prepaid wallet may also lack the balance after its charges.
            if (o.amount > owed) expect(ok).toBe(false);
            if (ok) paidModel[o.co]! += o.amount;
          }
        }

        // Each wallet's cached balance is the sum of its transactions, row by row.
        for (const w of await t.db.select().from(wallet).all()) {
          const txns = await t.db.select().from(walletTxn).where(eq(walletTxn.wallet_id, w.id)).orderBy(walletTxn.id).all();
          let run = 0;
          for (const x of txns) {
            run += x.amount_cents;
            expect(x.balance_after_cents).toBe(run);
          }
          expect(w.balance_cents).toBe(run);
        }
        // Shippers: owed = collected - paid (no statement nets here), never negative; collections match the parcels.
        for (const [i, c] of companies.entries()) {
          const pos = await codPosition(t.db, c);
          const collected = sum(parcels.filter((p) => p.co === i && p.collected != null).map((p) => p.collected!));
          expect(pos.collected_cents).toBe(collected);
          expect(pos.paid_cents).toBe(paidModel[i]);
          expect(pos.owed_cents).toBe(collected - paidModel[i]!);
          expect(pos.owed_cents).toBeGreaterThanOrEqual(0);
        }
        // Cancelled parcels: no collection, and their charge refunded (net zero).
        for (const p of parcels.filter((x) => x.cancelled)) {
          const txns = await t.db.select().from(walletTxn).where(eq(walletTxn.package_id, p.id)).all();
          expect(txns.filter((x) => x.kind === 'cod_collected')).toEqual([]);
          expect(sum(txns.map((x) => x.amount_cents))).toBe(0);
        }
        // Collected within [amount - waived, amount].
        for (const r of await t.db.select().from(packageCod).all()) {
          if (r.collected_cents == null) continue;
          expect(r.collected_cents).toBeGreaterThanOrEqual(r.amount_cents - r.waived_cents);
          expect(r.collected_cents).toBeLessThanOrEqual(r.amount_cents);
        }
        // Cash: floats + cash collected = still held + counted at hand-overs + drivers' debt (shortfalls - surpluses).
        const cashRows = await t.db.select().from(driverCashTxn).all();
        const inflow = sum(cashRows.filter((r) => r.kind === 'float' || r.kind === 'collected').map((r) => r.amount_cents));
        const held = sum(cashRows.filter((r) => r.account === 'cash').map((r) => r.amount_cents));
        const debt = sum(cashRows.filter((r) => r.account === 'debt').map((r) => r.amount_cents));
        const counted = sum((await t.db.select().from(cashHandover).all()).map((h) => h.counted_cents));
        expect(inflow).toBe(held + counted + debt);
        const cashCollected = sum(cashRows.filter((r) => r.kind === 'collected').map((r) => r.amount_cents));
        const cashParcels = sum(
          (await t.db.select().from(packageCod).where(eq(packageCod.method, 'cash')).all()).map((r) => r.collected_cents ?? 0),
        );
        expect(cashCollected).toBe(cashParcels);
      }),
      { numRuns: 10, endOnFailure: onPostgres, ...replay },
    );
  }, 240_000);
});
