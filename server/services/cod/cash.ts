import { and, eq, sql } from 'drizzle-orm';
import { handoverOutcome } from '../../../shared/cod';
import { localDay } from '../../../shared/time/zone';
import type { Db } from '../../db/client';
import { cashHandover, driverCashTxn, packageCod, user } from '../../db/schema/index';
import type { Deps } from '../../deps';
import { badRequest, conflict } from '../../errors';
import { iso } from '../../clock';
import { audit } from '../audit/record';
import { businessZone } from '../time/zones';

/**
 * A driver's cash for a local day (issue 34): the float the depot handed out, the cash collected at
 * doors, and the evening hand-over where the depot counts it. The hand-over takes the expected amount
 * out of the driver's cash in hand; a difference becomes a `shortfall` (or surplus) entry of the
 * driver's debt account and an audit line.
 */

type CashDeps = Pick<Deps, 'db' | 'clock' | 'config'>;
export type HandoverRow = typeof cashHandover.$inferSelect;

async function requireDriver(db: Db, id: number): Promise<void> {
  const row = await db.select({ role: user.role }).from(user).where(eq(user.id, id)).get();
  if (row?.role !== 'driver') throw badRequest(`User ${id} is not a driver`, [{ path: 'driver', message: 'not a driver' }]);
}

export async function dayOf(deps: CashDeps, day: string | undefined): Promise<string> {
  return day ?? localDay(deps.clock.now(), await businessZone(deps));
}

async function sumOf(db: Db, driverId: number, day: string, account: string, kind?: string): Promise<number> {
  const row = await db
    .select({ s: sql<number | null>`sum(${driverCashTxn.amount_cents})` })
    .from(driverCashTxn)
    .where(
      and(
        eq(driverCashTxn.driver_id, driverId),
        eq(driverCashTxn.day, day),
        eq(driverCashTxn.account, account),
        kind ? eq(driverCashTxn.kind, kind) : undefined,
      ),
    )
    .get();
  return Number(row?.s ?? 0);
}

/** The float the depot gives a driver for the day's change: cash in hand, brought back at the hand-over. */
export async function issueFloat(
  deps: CashDeps,
  actorId: number,
  input: { driver: number; day?: string; amount_cents: number; note?: string },
  currency: string,
): Promise<void> {
  await requireDriver(deps.db, input.driver);
  const day = await dayOf(deps, input.day);
  if (await handoverOf(deps.db, input.driver, day, currency))
    throw conflict(`Driver ${input.driver}'s cash for ${day} was handed over already`, { driver: input.driver, day });
  const now = deps.clock.now();
  await deps.db
    .insert(driverCashTxn)
    .values({
      driver_id: input.driver,
      day,
      account: 'cash',
      kind: 'float',
      amount_cents: input.amount_cents,
      currency,
      reason: input.note ?? '',
      created_by: actorId,
      created_at: now,
    })
    .run();
  await audit(deps.db, now, actorId, 'cod.float', `user:${input.driver}`, { day, amount_cents: input.amount_cents });
}

export async function handoverOf(db: Db, driverId: number, day: string, currency: string): Promise<HandoverRow | undefined> {
  return await db
    .select()
    .from(cashHandover)
    .where(and(eq(cashHandover.driver_id, driverId), eq(cashHandover.day, day), eq(cashHandover.currency, currency)))
    .get();
}

/** The depot counts a driver's cash for a day, once. */
export async function handOver(
  deps: CashDeps,
  actorId: number,
  input: { driver: number; day?: string; counted_cents: number; note?: string },
  currency: string,
): Promise<HandoverRow> {
  const { db } = deps;
  await requireDriver(db, input.driver);
  const day = await dayOf(deps, input.day);
  if (await handoverOf(db, input.driver, day, currency))
    throw conflict(`Driver ${input.driver}'s cash for ${day} was handed over already`, { driver: input.driver, day });
  const now = deps.clock.now();
  const expected = await sumOf(db, input.driver, day, 'cash');
  const { difference_cents, shortfall_cents } = handoverOutcome(expected, input.counted_cents);
  const row = await db
    .insert(cashHandover)
    .values({
      driver_id: input.driver,
      day,
      currency,
      expected_cents: expected,
      counted_cents: input.counted_cents,
      difference_cents,
      note: input.note ?? '',
      counted_by: actorId,
      created_at: now,
    })
    .onConflictDoNothing()
    .returning()
    .get();
  if (!row) throw conflict(`Driver ${input.driver}'s cash for ${day} was handed over meanwhile`, { driver: input.driver, day });
  const base = { driver_id: input.driver, day, currency, handover_id: row.id, created_by: actorId, created_at: now };
  await db
    .insert(driverCashTxn)
    .values({ ...base, account: 'cash', kind: 'handover', amount_cents: 0 - expected, reason: `counted ${input.counted_cents}` })
    .run();
  if (shortfall_cents !== 0) {
    await db
      .insert(driverCashTxn)
      .values({
        ...base,
        account: 'debt',
        kind: shortfall_cents > 0 ? 'shortfall' : 'surplus',
        amount_cents: shortfall_cents,
        reason: input.note ?? '',
      })
      .run();
  }
  await audit(db, now, actorId, 'cod.handover', `user:${input.driver}`, {
    day,
    expected_cents: expected,
    counted_cents: input.counted_cents,
    difference_cents,
    note: input.note,
  });
  return row;
}

export function handoverJson(r: HandoverRow, float: number) {
  return {
    id: r.id,
    driver: r.driver_id,
    day: r.day,
    currency: r.currency,
    float_cents: float,
    cash_collected_cents: r.expected_cents - float,
    expected_cents: r.expected_cents,
    counted_cents: r.counted_cents,
    difference_cents: r.difference_cents,
    note: r.note,
    created_at: iso(r.created_at) ?? '',
  };
}

/** A driver's cash for a day as the phone and the depot see it. */
export async function driverCash(deps: CashDeps, driverId: number, day: string, currency: string) {
  const { db } = deps;
  const float = await sumOf(db, driverId, day, 'cash', 'float');
  const cash = await sumOf(db, driverId, day, 'cash', 'collected');
  const card = Number(
    (
      await db
        .select({ s: sql<number | null>`sum(${packageCod.collected_cents})` })
        .from(packageCod)
        .where(and(eq(packageCod.collected_by, driverId), eq(packageCod.collected_day, day), eq(packageCod.method, 'card')))
        .get()
    )?.s ?? 0,
  );
  const h = await handoverOf(db, driverId, day, currency);
  const debt = Number(
    (
      await db
        .select({ s: sql<number | null>`sum(${driverCashTxn.amount_cents})` })
        .from(driverCashTxn)
        .where(and(eq(driverCashTxn.driver_id, driverId), eq(driverCashTxn.account, 'debt')))
        .get()
    )?.s ?? 0,
  );
  return {
    driver: driverId,
    day,
    currency,
    float_cents: float,
    cash_collected_cents: cash,
    card_collected_cents: card,
    handed_over: h ? handoverJson(h, float) : null,
    cash_held_cents: await sumOf(db, driverId, day, 'cash'),
    debt_cents: debt,
  };
}
