import { and, asc, eq, gt, gte, inArray, lte } from 'drizzle-orm';
import type { ArrivalRow } from '../../../shared/schemas/reports';
import { timeOnDay } from '../../../shared/routing/eta';
import { localDay } from '../../../shared/time/zone';
import type { Deps } from '../../deps';
import { deliveryAttempt, deliveryRecord, deliveryRoute, routeLeg, user } from '../../db/schema/index';
import { routeZone } from '../dispatch/eta';
import { windowsOf } from '../dispatch/windows';
import { arrivalStats, type ArrivalSample } from './arrivalStats';
import type { ReportFilter } from './period';

export type ArrivalGroup = 'route' | 'driver' | 'day';

interface Sample extends ArrivalSample {
  route: number;
  routeName: string;
  driver: number | null;
  driverName: string | null;
  date: string;
}

/** Route ids asked of the database at once. */
const CHUNK = 500;

/**
 * Every stop of the period's delivery routes (by the route's day, the depot's local day) that had a
 * promised arrival stored at commit and was worked on that day: its promise, its real arrival (the
 * time the driver recorded the delivery or failed attempt, less its time at the door) and its window.
 */
async function samples(deps: Pick<Deps, 'db' | 'config'>, f: ReportFilter): Promise<Sample[]> {
  const { db } = deps;
  const routes = await db
    .select({ r: deliveryRoute, name: user.name })
    .from(deliveryRoute)
    .leftJoin(user, eq(user.id, deliveryRoute.driver_id))
    .where(
      and(
        gte(deliveryRoute.date, f.from),
        lte(deliveryRoute.date, f.to),
        eq(deliveryRoute.kind, 'delivery'),
        f.driverId != null ? eq(deliveryRoute.driver_id, f.driverId) : undefined,
      ),
    )
    .orderBy(asc(deliveryRoute.date), asc(deliveryRoute.id))
    .all();
  const out: Sample[] = [];
  for (let i = 0; i < routes.length; i += CHUNK) {
    const part = routes.slice(i, i + CHUNK);
    const legs = await db
      .select()
      .from(routeLeg)
      .where(
        and(
          inArray(
            routeLeg.route_id,
            part.map((x) => x.r.id),
          ),
          gt(routeLeg.planned_at, 0),
        ),
      )
      .all();
    if (!legs.length) continue;
    const ids = [...new Set(legs.map((l) => l.package_id))];
    const worked = new Map<number, number[]>();
    const add = (id: number, at: number) => {
      const xs = worked.get(id) ?? [];
      xs.push(at);
      worked.set(id, xs);
    };
    for (let k = 0; k < ids.length; k += CHUNK) {
      const some = ids.slice(k, k + CHUNK);
      for (const d of await db
        .select({ id: deliveryRecord.package_id, at: deliveryRecord.occurred_at })
        .from(deliveryRecord)
        .where(inArray(deliveryRecord.package_id, some))
        .all())
        add(d.id, d.at);
      for (const a of await db
        .select({ id: deliveryAttempt.package_id, at: deliveryAttempt.occurred_at })
        .from(deliveryAttempt)
        .where(inArray(deliveryAttempt.package_id, some))
        .all())
        add(a.id, a.at);
    }
    const windows = await windowsOf(db, ids);
    const byRoute = new Map(part.map((x) => [x.r.id, x]));
    const zones = new Map<number, string>();
    for (const l of legs) {
      const x = byRoute.get(l.route_id)!;
      let zone = zones.get(x.r.id);
      if (!zone) {
        zone = await routeZone(deps, x.r);
        zones.set(x.r.id, zone);
      }
      // The stop's work on the route's own day: the first thing the driver recorded there that day.
      const that = (worked.get(l.package_id) ?? []).filter((at) => localDay(at, zone) === x.r.date).sort((a, b) => a - b)[0];
      if (that == null) continue;
      const w = windows.get(l.package_id);
      out.push({
        route: x.r.id,
        routeName: x.r.name,
        driver: x.r.driver_id,
        driverName: x.name,
        date: x.r.date,
        planned: l.planned_at,
        actual: that - (w?.service_s ?? 0) * 1000,
        window:
          w?.window_start && w.window_end ? [timeOnDay(x.r.date, w.window_start, zone), timeOnDay(x.r.date, w.window_end, zone)] : null,
      });
    }
  }
  return out;
}

/** The planned-against-actual report, one row per route, driver or day, in a stable order. */
export async function arrivalReport(deps: Pick<Deps, 'db' | 'config'>, f: ReportFilter, by: ArrivalGroup): Promise<ArrivalRow[]> {
  const groups = new Map<string, Sample[]>();
  for (const s of await samples(deps, f)) {
    const k = by === 'route' ? `r${s.route}` : by === 'driver' ? `d${s.driver ?? 'none'}` : s.date;
    const xs = groups.get(k) ?? [];
    xs.push(s);
    groups.set(k, xs);
  }
  const rows: ArrivalRow[] = [...groups.values()].map((xs) => {
    const s = xs[0]!;
    return {
      date: by === 'driver' ? null : s.date,
      driver: by === 'day' ? null : s.driver,
      driver_name: by === 'day' ? null : s.driverName,
      route: by === 'route' ? s.route : null,
      route_name: by === 'route' ? s.routeName : null,
      ...arrivalStats(xs),
    };
  });
  return rows.sort(
    (a, b) =>
      (a.date ?? '').localeCompare(b.date ?? '') ||
      (a.driver_name ?? '').localeCompare(b.driver_name ?? '') ||
      (a.driver ?? 0) - (b.driver ?? 0) ||
      (a.route ?? 0) - (b.route ?? 0),
  );
}
