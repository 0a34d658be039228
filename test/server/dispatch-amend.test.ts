/**
 * The day after the plan (issue 32, section 2), on the real server (SQLite here, PostgreSQL with
 * scripts/with-postgres.sh): two routes committed and on the road; at 11:00 new parcels arrive and
 * join them. The stops done and the driver's next stop stay put, the phone hears of the change
 * through its feed from where it left off, and the recipients' arrival times move. Then a driver
 * goes home sick and the remainder of the day is re-planned without them.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AmendProposal, RouteEtas } from '../../shared/schemas/dispatch';
import { stopEta } from '../../server/db/schema/index';
import { routeWorld, type Json, type PackageJson, type RouteJson } from './routes-helpers';

const DAY = '2026-01-05';
const DEPOT: [number, number] = [-33.87, 151.2];
const at = (hhmm: string) => Date.parse(`${DAY}T${hhmm}:00Z`); // the test app's business zone is UTC
interface Feed {
  cursor: number;
  upserts: { packages: (PackageJson & { route_id?: number | null })[] };
  removes: { packages: number[] };
}

async function onTheRoad() {
  const w = await routeWorld();
  const { t, admin, d1, d2 } = w;
  expect(
    (await t.json('PUT', `/api/warehouse/${w.warehouseId}/position/`, admin.token, { latitude: DEPOT[0], longitude: DEPOT[1] })).status,
  ).toBe(200);
  for (const [d, n] of [
    [d1.id, 1],
    [d2.id, 2],
  ]) {
    const van = await t.json<{ id: number }>('POST', '/api/vehicle/', admin.token, { name: `Van ${n}`, capacity_parcels: 20 });
    const s = await t.json('POST', '/api/driver-shift/', admin.token, {
      driver: d,
      date: DAY,
      start_time: '08:00',
      end_time: '17:00',
      start_warehouse: w.warehouseId,
      vehicle: van.body.id,
    });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
  }
  // North of the depot for driver 1, south for driver 2, five stops each, 2-6 km out.
  const north: number[] = [];
  const south: number[] = [];
  for (let k = 0; k < 5; k++) {
    north.push(
      await w.parcel(`N${k}`, { latitude: DEPOT[0] + 0.02 + 0.008 * k, longitude: DEPOT[1] + 0.004 * (k % 2), delivery_date: DAY }),
    );
    south.push(
      await w.parcel(`S${k}`, { latitude: DEPOT[0] - 0.02 - 0.008 * k, longitude: DEPOT[1] - 0.004 * (k % 2), delivery_date: DAY }),
    );
  }
  const route = async (driver: number, packages: number[]) => {
    const r = await t.json<{ id: number }>('POST', '/api/route/', admin.token, {
      name: `Run ${driver}`,
      date: DAY,
      driver,
      warehouse: w.warehouseId,
      start_latitude: DEPOT[0],
      start_longitude: DEPOT[1],
      packages,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = (r.body as { id?: number; route?: { id: number } }).id ?? (r.body as unknown as { route: { id: number } }).route.id;
    // Ordered and timed as the board's commit does.
    expect((await t.json('POST', `/api/route/${id}/optimize/`, admin.token, {})).status).toBe(200);
    return id;
  };
  const r1 = await route(d1.id, north);
  const r2 = await route(d2.id, south);
  t.clock.set(at('08:05'));
  for (const [id, d] of [
    [r1, d1],
    [r2, d2],
  ] as const)
    expect((await t.json('POST', `/api/route/${id}/status-change/`, d.token, { status: 'in_progress' })).status).toBe(200);
  return { ...w, r1, r2, north, south };
}

const orderOf = async (w: Awaited<ReturnType<typeof onTheRoad>>, route: number) =>
  (await w.t.json<RouteJson>('GET', `/api/route/${route}/`, w.admin.token)).body.packages;
const etaOf = async (w: Awaited<ReturnType<typeof onTheRoad>>, id: number) =>
  (await w.t.db.select().from(stopEta).where(eq(stopEta.package_id, id)).get())?.eta_at;
const feed = async (w: Awaited<ReturnType<typeof onTheRoad>>, token: string, cursor: number) =>
  (await w.t.json<Feed>('GET', `/api/sync/changes/?cursor=${cursor}&limit=1000`, token)).body;

describe('inserting parcels into running routes', () => {
  it('at 11:00 puts new parcels into the routes on the road; done and next stops stay; the phone and the recipients hear of it', async () => {
    const w = await onTheRoad();
    const { t, admin, d1, d2, shipper, r1, r2 } = w;
    // Driver 1 delivers their first stop at 09:30 and is heading to the second.
    t.clock.set(at('09:30'));
    const order1 = await orderOf(w, r1);
    const first = (await t.json<PackageJson>('GET', `/api/package/${order1[0]}/`, admin.token)).body;
    expect(
      (await t.json('POST', '/api/scan-package-api/scan-deliver/', d1.token, { barcode: first.hawb, recipient_name: 'At the door' }))
        .status,
    ).toBe(200);
    const next1 = order1[1];
    // The phone synced then and went offline.
    const phoneCursor = (await feed(w, d1.token, 0)).cursor;

    t.clock.set(at('11:00'));
    // The vans report where they are at 11:00 (out in their areas), so the times before the change are today's.
    for (const [d, lat] of [
      [d1, DEPOT[0] + 0.025],
      [d2, DEPOT[0] - 0.025],
    ] as const)
      expect(
        (
          await t.json('POST', '/api/driver-position/', d.token, {
            positions: [{ latitude: lat, longitude: DEPOT[1], occurred_at: `${DAY}T11:00:00Z` }],
          })
        ).status,
      ).toBe(200);
    const etaBefore = new Map<number, number | undefined>();
    for (const id of [...w.north, ...w.south]) etaBefore.set(id, await etaOf(w, id));
    // Three parcels due today arrive: two near driver 1's remaining stops, one among driver 2's furthest; one undated, one for tomorrow.
    const fresh = [
      await w.parcel('LATE-1', { latitude: DEPOT[0] + 0.031, longitude: DEPOT[1] + 0.006, delivery_date: DAY }),
      await w.parcel('LATE-2', { latitude: DEPOT[0] + 0.047, longitude: DEPOT[1] - 0.002, delivery_date: DAY }),
      await w.parcel('LATE-3', { latitude: DEPOT[0] - 0.05, longitude: DEPOT[1] + 0.003, delivery_date: DAY }),
    ];
    const undated = await w.parcel('UNDATED', { latitude: DEPOT[0] + 0.03, longitude: DEPOT[1] });
    const tomorrow = await w.parcel('TOMORROW', { latitude: DEPOT[0] + 0.03, longitude: DEPOT[1], delivery_date: '2026-01-06' });

    // Who may ask, and bad input: nothing runs, nothing changes.
    expect((await t.json('POST', '/api/dispatch/amend/', shipper.token, { date: DAY })).status).toBe(403);
    expect((await t.json('POST', '/api/dispatch/amend/', d1.token, { date: DAY })).status).toBe(403);
    expect((await t.json('POST', '/api/dispatch/amend/', admin.token, { date: 'today' })).status).toBe(400);
    expect((await t.json('POST', '/api/dispatch/amend/', admin.token, { date: DAY, drop_routes: [9999] })).status).toBe(400);
    expect((await t.json('POST', '/api/dispatch/amend/', admin.token, { date: DAY, packages: [first.id] })).status).toBe(400);

    const preview = await t.json<AmendProposal>('POST', '/api/dispatch/amend/', admin.token, { date: DAY });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const p = preview.body;
    const added = p.routes.flatMap((r) => r.added).sort((a, b) => a - b);
    expect(added).toEqual([...fresh].sort((a, b) => a - b));
    expect(added).not.toContain(undated);
    expect(added).not.toContain(tomorrow);
    expect(p.unassigned).toEqual([]);
    const a1 = p.routes.find((r) => r.route === r1)!;
    const a2 = p.routes.find((r) => r.route === r2)!;
    // Each new parcel went to the van that passes by it (each must fetch it from the depot: the far one is worth the trip).
    expect(a1.added.sort()).toEqual([fresh[0], fresh[1]].sort());
    expect(a2.added).toEqual([fresh[2]]);
    // The delivered stop is done and not offered for change; the next stop stays first.
    expect(a1.done).toBe(1);
    expect(a1.before[0]).toBe(next1);
    expect(a1.stops[0]).toMatchObject({ package: next1, state: 'next' });
    expect(a1.stops.some((s) => s.package === first.id)).toBe(false);
    expect(a1.removed).toEqual([]);
    for (const s of a1.stops)
      expect(s.state).toBe(
        s.package === next1 ? 'next' : a1.added.includes(s.package) ? 'added' : a1.moved.includes(s.package) ? 'moved' : 'kept',
      );
    expect(Date.parse(a1.back!)).toBeGreaterThan(Date.parse(a1.stops.at(-1)!.eta));
    // The new parcels are at the depot, the vans out: each goes back for them after its next stop and
    // before its first new one (where it passes nearest the depot), and that trip is in the times.
    for (const [a, n] of [
      [a1, 2],
      [a2, 1],
    ] as const) {
      const firstNew = a.stops.findIndex((s) => s.state === 'added');
      expect(a.reload).toMatchObject({ parcels: n });
      expect(a.reload!.before).toBeGreaterThan(0);
      expect(a.reload!.before).toBeLessThanOrEqual(firstNew);
      expect(Date.parse(a.reload!.eta)).toBeGreaterThanOrEqual(Date.parse(a.stops[a.reload!.before - 1].eta));
      for (const s of a.stops.slice(a.reload!.before))
        expect(Date.parse(s.eta)).toBeGreaterThanOrEqual(Date.parse(a.reload!.eta) + 600_000);
    }
    // The preview wrote nothing.
    expect(await orderOf(w, r1)).toEqual(order1);

    // A commit that moves the stop the driver is heading to is refused, and changes nothing.
    // As the board sends it: each route's stops, and where its van goes back to the depot.
    const body = {
      routes: p.routes.map((r) => ({
        route: r.route,
        packages: r.stops.map((s) => s.package),
        ...(r.reload ? { reload_before: r.stops[r.reload.before].package } : {}),
      })),
    };
    const swapped = { routes: body.routes.map((r) => (r.route === r1 ? { ...r, packages: [...r.packages.slice(1), r.packages[0]] } : r)) };
    expect((await t.json('POST', '/api/dispatch/amend/commit/', admin.token, swapped)).status).toBe(409);
    // Dropping a stop a van carries is refused too.
    const carried = a2.before.at(-1)!;
    const short = { routes: body.routes.map((r) => (r.route === r2 ? { ...r, packages: r.packages.filter((id) => id !== carried) } : r)) };
    expect((await t.json('POST', '/api/dispatch/amend/commit/', admin.token, short)).status).toBe(409);
    expect((await t.json('POST', '/api/dispatch/amend/commit/', shipper.token, body)).status).toBe(403);
    expect(await orderOf(w, r1)).toEqual(order1);

    const c = await t.json<{ routes: RouteJson[] }>('POST', '/api/dispatch/amend/commit/', admin.token, body);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const after1 = await orderOf(w, r1);
    expect(after1).toEqual([first.id, ...a1.stops.map((s) => s.package)]);

    // The phone, back online, reads the change from where it left off: the new parcels are its own,
    // in the order the office committed, after the stop it is heading to.
    const got = await feed(w, d1.token, phoneCursor);
    const mine = new Map(got.upserts.packages.map((x) => [x.id, x]));
    for (const id of a1.added) expect(mine.get(id)).toMatchObject({ assigned_to_id: d1.id, status: 'assigned' });
    const seq = (id: number) => mine.get(id)?.sequence_no ?? after1.indexOf(id) + 1;
    expect(a1.stops.map((s) => seq(s.package))).toEqual(a1.stops.map((_, i) => i + 2));
    // Driver 2's phone gets their one new parcel and nothing of driver 1's.
    const other = await feed(w, d2.token, 0);
    expect(other.upserts.packages.map((x) => x.id)).toContain(fresh[2]);
    expect(other.upserts.packages.map((x) => x.id)).not.toContain(fresh[0]);

    // Recipients' times: the new stops have one, and stops after an inserted one are reached later.
    for (const id of fresh) expect(await etaOf(w, id)).toBeGreaterThan(at('11:00'));
    const eta = await t.json<RouteEtas>('GET', `/api/route/${r1}/eta/`, admin.token);
    expect(eta.body.stops.map((s) => s.package)).toEqual(a1.stops.map((s) => s.package));
    const firstAdded = a1.stops.findIndex((s) => s.state === 'added');
    const laterOld = a1.stops.slice(firstAdded + 1).filter((s) => s.state !== 'added');
    if (laterOld.length) for (const s of laterOld) expect((await etaOf(w, s.package))!).toBeGreaterThan(etaBefore.get(s.package)!);
    else expect(Date.parse(eta.body.finish!)).toBeGreaterThan(Math.max(...[...etaBefore.values()].filter((x): x is number => x != null)));
    const pkgEta = await t.json<{ eta: { from: string; to: string } | null }>('GET', `/api/package/${fresh[0]}/eta/`, shipper.token);
    expect(pkgEta.body.eta).not.toBeNull();
    // The phone's plan names the trip back to the depot before the first new stop, and the stored
    // times count it: the new parcels are reached after loading.
    expect(eta.body.reload).toMatchObject({ before: a1.stops[a1.reload!.before].package, parcels: 2 });
    for (const s of a1.stops.slice(a1.reload!.before))
      expect((await etaOf(w, s.package))!).toBeGreaterThanOrEqual(Date.parse(eta.body.reload!.eta!) + 600_000);
    // Once the driver has scanned them onto the van at the depot, there is no trip left to make.
    for (const id of a1.added) {
      const hawb = (await t.json<PackageJson>('GET', `/api/package/${id}/`, admin.token)).body.hawb;
      expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', d1.token, { barcode: hawb })).status).toBe(200);
    }
    expect((await t.json<RouteEtas>('GET', `/api/route/${r1}/eta/`, admin.token)).body.reload ?? null).toBeNull();

    // Nothing left to insert: a second preview changes nothing anywhere.
    const again = await t.json<AmendProposal>('POST', '/api/dispatch/amend/', admin.token, { date: DAY });
    expect(again.body.routes.every((r) => !r.added.length && !r.moved.length && !r.removed.length)).toBe(true);
  }, 120_000);

  it('re-plans the remainder without a driver who went home sick: their stops go to the others, locks kept', async () => {
    const w = await onTheRoad();
    const { t, admin, d1, d2, r1, r2 } = w;
    // The office's break: 30 minutes starting 2.5 to 4 hours into the day, counted from when the van left (08:05).
    expect(
      (await t.json('PUT', '/api/dispatch/settings/', admin.token, { break: { minutes: 30, after_min: 150, after_max: 240 } })).status,
    ).toBe(200);
    t.clock.set(at('10:00'));
    const order1 = await orderOf(w, r1);
    const order2 = await orderOf(w, r2);
    const hawb = (await t.json<PackageJson>('GET', `/api/package/${order2[0]}/`, admin.token)).body.hawb;
    expect(
      (await t.json('POST', '/api/scan-package-api/scan-deliver/', d2.token, { barcode: hawb, recipient_name: 'Front desk' })).status,
    ).toBe(200);
    const cursor1 = (await feed(w, d1.token, 0)).cursor;

    const preview = await t.json<AmendProposal>('POST', '/api/dispatch/amend/', admin.token, {
      date: DAY,
      drop_routes: [r2],
      packages: [],
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const gone = preview.body.routes.find((r) => r.route === r2)!;
    const kept = preview.body.routes.find((r) => r.route === r1)!;
    expect(gone).toMatchObject({ dropped: true, stops: [] });
    expect(gone.removed.sort()).toEqual(order2.slice(1).sort());
    // Driver 1 keeps every stop they had, the one they are heading to first, and takes the four left.
    expect(kept.stops[0]).toMatchObject({ package: order1[0], state: 'next' });
    expect(kept.added.sort()).toEqual(order2.slice(1).sort());
    // Van 2's parcels wait at the depot for van 1, which goes back for them; its break is inside its window.
    expect(kept.reload).toMatchObject({ parcels: 4 });
    expect(kept.break).toBeTruthy();
    expect(Date.parse(kept.break!.start)).toBeGreaterThanOrEqual(at('10:35'));
    expect(Date.parse(kept.break!.start)).toBeLessThanOrEqual(at('12:05'));
    expect(Date.parse(kept.break!.end) - Date.parse(kept.break!.start)).toBe(30 * 60_000);
    expect(
      kept.stops
        .map((s) => s.package)
        .filter((id) => order1.includes(id))
        .sort(),
    ).toEqual([...order1].sort());

    const body: Json = { routes: [{ route: r1, packages: kept.stops.map((s) => s.package) }], drop_routes: [r2] };
    const c = await t.json<{ routes: RouteJson[] }>('POST', '/api/dispatch/amend/commit/', admin.token, body);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body.routes.find((r) => r.id === r2)).toMatchObject({ status: 'cancelled' });
    expect(await orderOf(w, r1)).toEqual(kept.stops.map((s) => s.package));
    const got = await feed(w, d1.token, cursor1);
    for (const id of order2.slice(1)) expect(got.upserts.packages.find((x) => x.id === id)).toMatchObject({ assigned_to_id: d1.id });
    // Driver 2's phone lets go of them; the delivered one stays theirs on the record.
    const theirs = await feed(w, d2.token, 0);
    expect(theirs.upserts.packages.filter((x) => x.status !== 'delivered').map((x) => x.id)).toEqual([]);
    // The same commit again is out of date: the route is no longer live.
    expect((await t.json('POST', '/api/dispatch/amend/commit/', admin.token, body)).status).toBe(409);
  }, 120_000);
});

describe("insertion at each van's own rates, and a route opened for a driver on shift with none yet", () => {
  it('prices each van at its own rates; opens a route for the idle driver only when that is cheaper; the commit creates it for their phone', async () => {
    const w = await onTheRoad();
    const { t, admin, d1 } = w;
    expect(
      (await t.json('PUT', '/api/dispatch/settings/', admin.token, { costs: { per_hour: 40, per_km: 0.5, per_vehicle: 0 } })).status,
    ).toBe(200);
    // A third driver is on shift with a van but was given no route; sending that van out costs 1,000.
    const d3 = await t.login('driver', { name: 'Ida Idle' });
    const van3 = await t.json<{ id: number }>('POST', '/api/vehicle/', admin.token, { name: 'Van 3', cost_fixed: 1000 });
    expect(van3.status, JSON.stringify(van3.body)).toBe(201);
    expect(
      (
        await t.json('POST', '/api/driver-shift/', admin.token, {
          driver: d3.id,
          date: DAY,
          start_time: '08:00',
          end_time: '17:00',
          start_warehouse: w.warehouseId,
          vehicle: van3.body.id,
        })
      ).status,
    ).toBe(201);
    t.clock.set(at('11:00'));
    // A parcel north of the depot, on van 1's side.
    const late = await w.parcel('LATE-N', { latitude: DEPOT[0] + 0.03, longitude: DEPOT[1] + 0.002, delivery_date: DAY });
    const preview = async () => {
      const r = await t.json<AmendProposal>('POST', '/api/dispatch/amend/', admin.token, { date: DAY, packages: [late] });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };
    const holder = (p: AmendProposal) => p.routes.find((r) => r.stops.some((s) => s.package === late));
    expect(holder(await preview())).toMatchObject({ route: w.r1 });

    // Van 1 costs ten times the office's rates: the same parcel goes to van 2 (a van's own rates count, issue 32).
    const vans = await t.json<{ results: { id: number; name: string }[] }>('GET', '/api/vehicle/', admin.token);
    const van1 = vans.body.results.find((v) => v.name === 'Van 1')!;
    const dear = await t.json('PATCH', `/api/vehicle/${van1.id}/`, admin.token, { cost_per_hour: 400, cost_per_km: 5 });
    expect(dear.status, JSON.stringify(dear.body)).toBe(200);
    const second = await preview();
    expect(holder(second)).toMatchObject({ route: w.r2 });
    expect(second.routes.some((r) => r.opens)).toBe(false);

    // Van 3 now costs 5 to send out: opening a route from the depot beats van 2's detour.
    expect((await t.json('PATCH', `/api/vehicle/${van3.body.id}/`, admin.token, { cost_fixed: 5 })).status).toBe(200);
    const third = await preview();
    const opened = holder(third)!;
    expect(opened).toMatchObject({ route: null, opens: true, driver: d3.id, done: 0, before: [], added: [late] });
    expect(opened.stops).toMatchObject([{ package: late, state: 'added' }]);
    // It leaves the depot now (11:00), not at the start of the shift.
    expect(Date.parse(opened.stops[0].eta)).toBeGreaterThan(at('11:00'));
    expect(third.routes.filter((r) => r.route != null).every((r) => !r.added.length)).toBe(true);

    // Committed as the board sends it: the route is created for the driver, whose phone gets the parcel.
    const body = {
      date: DAY,
      routes: [],
      open_routes: [{ driver: d3.id, packages: [late] }],
    };
    // Not for a driver who has a route already, nor with a parcel another route holds.
    expect(
      (await t.json('POST', '/api/dispatch/amend/commit/', admin.token, { ...body, open_routes: [{ driver: d1.id, packages: [late] }] }))
        .status,
    ).toBe(409);
    expect(
      (
        await t.json('POST', '/api/dispatch/amend/commit/', admin.token, {
          ...body,
          open_routes: [{ driver: d3.id, packages: [w.north[0]] }],
        })
      ).status,
    ).toBe(409);
    expect((await t.json('POST', '/api/dispatch/amend/commit/', admin.token, { open_routes: body.open_routes })).status).toBe(400);
    const c = await t.json<{ routes: RouteJson[] }>('POST', '/api/dispatch/amend/commit/', admin.token, body);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const made = c.body.routes.find((r) => r.driver === d3.id)!;
    expect(made).toMatchObject({ status: 'planned', date: DAY, kind: 'delivery', name: `Ida Idle ${DAY}` });
    expect(await orderOf(w, made.id)).toEqual([late]);
    const phone = await feed(w, d3.token, 0);
    expect(phone.upserts.packages.find((x) => x.id === late)).toMatchObject({ assigned_to_id: d3.id, status: 'assigned' });
    expect(await etaOf(w, late)).toBeGreaterThan(at('11:00'));
    // The driver has a route now: the next insertion treats it as one on the road, and opens nothing more.
    const after = await t.json<AmendProposal>('POST', '/api/dispatch/amend/', admin.token, { date: DAY });
    expect(after.body.routes.find((r) => r.route === made.id)).toMatchObject({ before: [late], added: [] });
    expect(after.body.routes.some((r) => r.opens)).toBe(false);
  }, 120_000);
});
