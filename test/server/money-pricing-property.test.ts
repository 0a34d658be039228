import fc from 'fast-check';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { atomically } from '../../server/db/atomically';
import { company, deliveryRate, invoiceLine, pkg, user, wallet, walletTxn, zone } from '../../server/db/schema/index';
import { ApiError } from '../../server/errors';
import type { SessionUser } from '../../server/services/auth/session';
import { generateStatement } from '../../server/services/money/invoices';
import { netCharged, priceUnpriced, unpricedParcels } from '../../server/services/money/parcelPricing';
import { receivePayment } from '../../server/services/money/payments';
import { createPackage } from '../../server/services/packages/create';
import { adjustWeight, changeStatus, editPackage } from '../../server/services/packages/edit';
import { transition } from '../../server/services/packages/lifecycle';
import { makeApp } from '../helpers/app';

/**
 * Issue 18, "money that never goes missing": random sequences of creations, weight changes (before
 * and after depot receipt), rate-line changes, cancellations, deliveries and statements run through
 * the real services on a real database, beside a model that knows only the rule:
 *  - every parcel is charged exactly the price its final weight and zone imply under the card in
 *    force when it was last priced, or it is listed as unpriced (charged nothing);
 *  - a cancelled parcel is charged nothing in the end;
 *  - every wallet equals the sum of its ledger, row by row;
 *  - statements bill each postpaid charge, re-price and refund at most once, and after a final
 *    statement all of them exactly once, totalling what the parcels cost.
 */
type Op =
  | { kind: 'create'; co: number; kg: number; zone: number }
  | { kind: 'weight'; nth: number; kg: number }
  | { kind: 'receive'; nth: number }
  | { kind: 'line'; zone: number; base: number; per: number }
  | { kind: 'drop_line'; nth: number }
  | { kind: 'cancel'; nth: number }
  | { kind: 'deliver'; nth: number }
  | { kind: 'statement'; co: number };

const ZONES = 3; // zone index ZONES means "no zone" (only a zone-less line fits)
const COMPANIES = 3;
const kg = fc.integer({ min: 1, max: 40 }).map((n) => n / 2);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('create' as const), co: fc.nat(COMPANIES - 1), kg, zone: fc.nat(ZONES) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('weight' as const), nth: fc.nat(60), kg }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('receive' as const), nth: fc.nat(60) }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('line' as const),
      zone: fc.nat(ZONES),
      base: fc.integer({ min: 0, max: 900 }),
      per: fc.integer({ min: 0, max: 300 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('drop_line' as const), nth: fc.nat(20) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), nth: fc.nat(60) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('deliver' as const), nth: fc.nat(60) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('statement' as const), co: fc.nat(COMPANIES - 1) }), weight: 1 },
);

interface Line {
  id: number;
  zone: number | null;
  base: number;
  per: number;
  active: boolean;
}
interface Parcel {
  id: number;
  co: number;
  kg: number;
  zone: number | null;
  landed: boolean;
  status: string;
  expected: number | null;
}

/** The rule, written independently of the server: zone lines beat zone-less ones, then the oldest; base + per started kg. */
function modelPrice(lines: Line[], p: Pick<Parcel, 'kg' | 'zone'>): number | null {
  const active = lines.filter((l) => l.active);
  const fit = active.filter((l) => l.zone != null && l.zone === p.zone);
  const pool = fit.length ? fit : active.filter((l) => l.zone == null);
  if (!pool.length) return null;
  const l = pool.reduce((a, b) => (b.id < a.id ? b : a));
  return l.base + l.per * Math.ceil(p.kg);
}

describe('money property: parcels charged once at the price they imply, or listed unpriced', () => {
  it('holds for any sequence of creations, weight changes, rate-line changes, cancellations, deliveries and statements', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 35 }), async (ops) => {
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
        const admin: SessionUser = {
          id: adminId,
          name: 'A',
          email: 'a@x.test',
          role: 'admin',
          companyId: null,
          tokenId: 0,
          permissions: new Set(),
        };
        const billing = ['postpaid', 'prepaid', 'postpaid'] as const;
        const companies: number[] = [];
        for (const b of billing) {
          const id = await t.company();
          await t.db.update(company).set({ billing_type: b }).where(eq(company.id, id)).run();
          companies.push(id);
        }
        const zones: number[] = [];
        for (let i = 0; i < ZONES; i++)
          zones.push(
            (
              await t.db
                .insert(zone)
                .values({ name: `Z${i}`, created_at: now, updated_at: now })
                .returning()
                .get()
            ).id,
          );
        // The prepaid company holds enough that it never runs dry (running dry is the ledger property's business).
        await atomically(deps, async () =>
          receivePayment(deps, admin, companies[1], 'prepaid', { amount_cents: 100_000_000, reference: '', note: '' }),
        );

        const lines: Line[] = [];
        const parcels: Parcel[] = [];
        let n = 0;
        const tx = async (fn: () => Promise<void>): Promise<boolean> => {
          try {
            await atomically(deps, fn);
            return true;
          } catch (err) {
            if (err instanceof ApiError && (err.status === 409 || err.status === 400)) return false;
            throw err;
          }
        };
        const pick = (nth: number) => (parcels.length ? parcels[nth % parcels.length] : undefined);
        const repriceUnpriced = () => {
          for (const p of parcels) if (p.expected == null && p.status !== 'cancelled') p.expected = modelPrice(lines, p);
        };

        for (const o of ops) {
          if (o.kind === 'create') {
            n += 1;
            const z = o.zone < ZONES ? zones[o.zone] : null;
            let id = 0;
            expect(
              await tx(async () => {
                id = (await createPackage(deps, admin, { hawb: `PP${n}`, company: companies[o.co], weight: o.kg, zone: z })).id;
              }),
            ).toBe(true);
            const p: Parcel = { id, co: o.co, kg: o.kg, zone: z, landed: false, status: 'created', expected: null };
            p.expected = modelPrice(lines, p);
            parcels.push(p);
          } else if (o.kind === 'weight') {
            const p = pick(o.nth);
            if (!p) continue;
            const open = !['delivered', 'cancelled'].includes(p.status);
            // Before receipt the office edits the weight; after it, only an adjustment with a reason.
            const ok = await tx(async () => {
              if (p.landed) await adjustWeight(deps, admin, p.id, { weight: o.kg, reason: 'measured' });
              else await editPackage(deps, admin, p.id, { weight: o.kg });
            });
            expect(ok).toBe(open);
            // An edit re-prices only what it changes (services/packages/edit.ts); an adjustment always re-prices.
            if (ok) {
              const repriced = p.landed || o.kg !== p.kg;
              p.kg = o.kg;
              if (repriced) p.expected = modelPrice(lines, p);
            }
            if (p.landed && open) {
              // The PATCH path is refused after receipt: the depot's measurement wins.
              expect(
                await tx(async () => {
                  await editPackage(deps, admin, p.id, { weight: o.kg + 1 });
                }),
              ).toBe(false);
            }
          } else if (o.kind === 'receive') {
            const p = pick(o.nth);
            if (!p) continue;
            const ok = await tx(async () => {
              await changeStatus(deps, admin, p.id, 'received');
            });
            expect(ok).toBe(p.status === 'created');
            if (ok) {
              p.status = 'received';
              p.landed = true;
            }
          } else if (o.kind === 'line') {
            const z = o.zone < ZONES ? zones[o.zone] : null;
            await atomically(deps, async () => {
              const id = (
                await t.db
                  .insert(deliveryRate)
                  .values({ zone_id: z, base_cents: o.base, per_unit_cents: o.per, currency: 'AUD', created_at: now, updated_at: now })
                  .returning()
                  .get()
              ).id;
              lines.push({ id, zone: z, base: o.base, per: o.per, active: true });
              await priceUnpriced(deps, adminId); // what the rate-line route runs after every write
            });
            repriceUnpriced();
          } else if (o.kind === 'drop_line') {
            const active = lines.filter((l) => l.active);
            if (!active.length) continue;
            const l = active[o.nth % active.length];
            await atomically(deps, async () => {
              await t.db.update(deliveryRate).set({ is_active: false }).where(eq(deliveryRate.id, l.id)).run();
              await priceUnpriced(deps, adminId);
            });
            l.active = false;
            repriceUnpriced();
          } else if (o.kind === 'cancel') {
            const p = pick(o.nth);
            if (!p) continue;
            const ok = await tx(async () => {
              await changeStatus(deps, admin, p.id, 'cancelled', 'prop');
            });
            expect(ok).toBe(['created', 'received'].includes(p.status));
            if (ok) p.status = 'cancelled';
          } else if (o.kind === 'deliver') {
            const p = pick(o.nth);
            if (!p) continue;
            const ok = await tx(async () => {
              const row = await t.db.select().from(pkg).where(eq(pkg.id, p.id)).get();
              if (!row) throw new Error('parcel vanished');
              await transition(
                t.db,
                now,
                row,
                'delivered',
                'force_deliver',
                { userId: adminId },
                { note: 'prop' },
                { delivered_at: now },
                { force: true },
              );
            });
            expect(ok).toBe(!['delivered', 'cancelled'].includes(p.status));
            if (ok) p.status = 'delivered';
          } else {
            if (billing[o.co] !== 'postpaid') continue;
            const day = new Date(now).toISOString().slice(0, 10);
            await tx(async () => {
              await generateStatement(deps, admin, companies[o.co], day, day);
            });
          }
        }

        // 1. Every parcel: charged exactly what the model says, or nothing and listed as unpriced.
        const listed = new Set((await unpricedParcels(t.db, null, 10_000)).rows.map((r) => r.package));
        for (const p of parcels) {
          const charged = (await netCharged(t.db, p.id)) + 0;
          if (p.status === 'cancelled') {
            expect(charged).toBe(0);
            expect(listed.has(p.id)).toBe(false);
            continue;
          }
          if (p.expected == null) {
            expect(listed.has(p.id)).toBe(true);
            expect(charged).toBe(0);
            continue;
          }
          expect(listed.has(p.id)).toBe(false);
          expect(charged).toBe(p.expected);
          const row = await t.db.select().from(pkg).where(eq(pkg.id, p.id)).get();
          expect(Math.round((row?.price ?? -1) * 100)).toBe(p.expected);
        }

        // 2. Wallets equal the sum of their ledger, row by row.
        for (const id of companies) {
          const w = await t.db.select().from(wallet).where(eq(wallet.company_id, id)).get();
          const txns = await t.db.select().from(walletTxn).where(eq(walletTxn.company_id, id)).orderBy(walletTxn.id).all();
          let running = 0;
          for (const x of txns) {
            running += x.amount_cents;
            expect(x.balance_after_cents).toBe(running);
          }
          expect(w?.balance_cents ?? 0).toBe(running);
        }

        // 3. A final statement for each postpaid company bills every parcel movement exactly once.
        const day = new Date(now).toISOString().slice(0, 10);
        for (const [i, id] of companies.entries()) {
          if (billing[i] !== 'postpaid') continue;
          await tx(async () => {
            await generateStatement(deps, admin, id, day, day);
          });
          const moves = await t.db
            .select()
            .from(walletTxn)
            .where(and(eq(walletTxn.company_id, id), inArray(walletTxn.kind, ['charge', 'reprice', 'refund'])))
            .all();
          const lines = moves.length
            ? await t.db
                .select()
                .from(invoiceLine)
                .where(
                  inArray(
                    invoiceLine.txn_id,
                    moves.map((m) => m.id),
                  ),
                )
                .all()
            : [];
          expect(lines.length).toBe(moves.length);
          const billed = lines.reduce((s, l) => s + l.amount_cents, 0);
          const owed = parcels.filter((p) => p.co === i && p.status !== 'cancelled').reduce((s, p) => s + (p.expected ?? 0), 0);
          expect(billed).toBe(owed);
        }
        await t.db.$engine.close();
      }),
      { numRuns: 40 },
    );
  }, 180_000);
});
