import { and, eq, gte, lt, lte, sql } from 'drizzle-orm';
import { addDays, daysBetween, localDay, localDaysRange } from '../../../shared/time/zone';
import { cashHandover, packageCod, walletTxn } from '../../db/schema/index';
import type { Deps } from '../../deps';
import { badRequest } from '../../errors';
import { businessZone } from '../time/zones';

/**
 * Cash on delivery per business-local day and driver (issue 34): collected (cash, card), waived,
 * handed over and its difference; per day (driver null) what became owed to shippers and what was
 * paid out to them. Bounded to 366 days, aggregated in the database.
 */
interface Row {
  day: string;
  driver: number | null;
  currency: string;
  collected_cash_cents: number;
  collected_card_cents: number;
  waived_cents: number;
  handed_over_cents: number;
  difference_cents: number;
  owed_cents: number;
  paid_cents: number;
}
const blank = (day: string, driver: number | null, currency: string): Row => ({
  day,
  driver,
  currency,
  collected_cash_cents: 0,
  collected_card_cents: 0,
  waived_cents: 0,
  handed_over_cents: 0,
  difference_cents: 0,
  owed_cents: 0,
  paid_cents: 0,
});

export async function codReport(deps: Pick<Deps, 'db' | 'clock' | 'config'>, q: { from?: string; to?: string; driver?: number }) {
  const { db } = deps;
  const zone = await businessZone(deps);
  const to = q.to ?? q.from ?? localDay(deps.clock.now(), zone);
  const from = q.from ?? addDays(to, -6);
  if (daysBetween(from, to) < 0 || daysBetween(from, to) > 365)
    throw badRequest('from..to must be 1 to 366 days', [{ path: 'to', message: 'bad period' }]);
  const rows = new Map<string, Row>();
  const at = (day: string, driver: number | null, currency: string) => {
    const k = `${day}|${driver ?? ''}|${currency}`;
    let r = rows.get(k);
    if (!r) {
      r = blank(day, driver, currency);
      rows.set(k, r);
    }
    return r;
  };
  const driverCond = q.driver != null ? eq(packageCod.collected_by, q.driver) : undefined;
  const collected = await db
    .select({
      day: packageCod.collected_day,
      driver: packageCod.collected_by,
      currency: packageCod.currency,
      method: packageCod.method,
      s: sql<number>`sum(${packageCod.collected_cents})`,
      w: sql<number>`sum(${packageCod.waived_cents})`,
    })
    .from(packageCod)
    .where(and(gte(packageCod.collected_day, from), lte(packageCod.collected_day, to), driverCond))
    .groupBy(packageCod.collected_day, packageCod.collected_by, packageCod.currency, packageCod.method)
    .all();
  for (const c of collected) {
    const r = at(c.day ?? '', c.driver, c.currency);
    if (c.method === 'card') r.collected_card_cents += Number(c.s);
    else r.collected_cash_cents += Number(c.s);
    r.waived_cents += Number(c.w);
  }
  const handed = await db
    .select()
    .from(cashHandover)
    .where(and(gte(cashHandover.day, from), lte(cashHandover.day, to), q.driver != null ? eq(cashHandover.driver_id, q.driver) : undefined))
    .all();
  for (const h of handed) {
    const r = at(h.day, h.driver_id, h.currency);
    r.handed_over_cents += h.counted_cents;
    r.difference_cents += h.difference_cents;
  }
  if (q.driver == null) {
    const { start, end } = localDaysRange(from, to, zone);
    const moves = await db
      .select({ kind: walletTxn.kind, amount: walletTxn.amount_cents, currency: walletTxn.currency, at: walletTxn.created_at })
      .from(walletTxn)
      .where(
        and(sql`${walletTxn.kind} in ('cod_collected', 'cod_payout')`, gte(walletTxn.created_at, start), lt(walletTxn.created_at, end)),
      )
      .all();
    for (const m of moves) {
      const r = at(localDay(m.at, zone), null, m.currency);
      if (m.kind === 'cod_collected') r.owed_cents += m.amount;
      else r.paid_cents -= m.amount;
    }
  }
  const list = [...rows.values()].sort((a, b) => a.day.localeCompare(b.day) || (a.driver ?? 0) - (b.driver ?? 0));
  const totals = new Map<string, Omit<Row, 'day' | 'driver'>>();
  for (const r of list) {
    const { day: _d, driver: _r, ...amounts } = r;
    const t = totals.get(r.currency);
    if (!t) {
      totals.set(r.currency, { ...amounts });
      continue;
    }
    for (const k of Object.keys(amounts) as (keyof typeof amounts)[]) if (k !== 'currency') t[k] += amounts[k];
  }
  return { from, to, rows: list, totals: [...totals.values()] };
}
