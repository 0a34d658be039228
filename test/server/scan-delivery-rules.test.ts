import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/errors';
import { loadSession, type SessionUser } from '../../server/services/auth/session';
import { atomically } from '../../server/db/atomically';
import { actionParcel } from '../../server/services/packages/deliver';
import { failurePhotoParcel } from '../../server/services/packages/fail';
import { checkScans } from '../../server/services/packages/history';
import { writableProofParcel } from '../../server/services/packages/proof';
import { scanContext } from '../../server/services/packages/scan';
import { reportNoParcel } from '../../server/services/packages/scanExceptions';
import { assertMayListVan } from '../../server/services/packages/vanLists';
import { makeApp } from '../helpers/app';

/**
 * The record rules the scan and delivery routes call (services/packages): who may read which van
 * list, which parcel a driver's action or proof reaches, what a no-parcel report shows, which day's
 * supervisor checks are listed. Real sessions on a real database; the API tests walk the same paths.
 */
async function world() {
  const t = await makeApp();
  const tokens = new Map<number, string>();
  const session = async (role: Parameters<typeof t.login>[0]) => {
    const { id, token } = await t.login(role);
    tokens.set(id, token);
    return (await loadSession(t.db, token, t.clock.now())) as SessionUser;
  };
  const admin = await session('admin');
  const supervisor = await session('supervisor');
  const d1 = await session('driver');
  const d2 = await session('driver');
  const shipper = await session('company');
  const other = await session('company');
  const as = (u: SessionUser) => tokens.get(u.id) as string;
  const parcel = async (hawb: string, driver?: SessionUser) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', as(shipper), { hawb });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    if (driver)
      expect(
        (await t.json('POST', '/api/assign-package/assign-driver/', as(admin), { driver: driver.id, packages: [res.body.id] })).status,
      ).toBe(200);
    return res.body.id;
  };
  return { t, admin, supervisor, d1, d2, shipper, other, parcel, as };
}

/** The status and code an action is refused with, or 'ok'. */
async function outcome(run: () => unknown): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.message}`;
    throw err;
  }
}

describe('scan and delivery rules', () => {
  it("van lists: a driver reads only their own, staff anyone's", async () => {
    const w = await world();
    expect(await outcome(() => assertMayListVan(w.d1, w.d1.id, 'remaining'))).toBe('ok');
    expect(await outcome(() => assertMayListVan(w.d1, w.d2.id, 'remaining'))).toBe('403 You may only list your own remaining packages');
    expect(await outcome(() => assertMayListVan(w.d1, w.d2.id, 'scanned'))).toBe('403 You may only list your own scanned packages');
    expect(await outcome(() => assertMayListVan(w.supervisor, w.d2.id, 'scanned'))).toBe('ok');
    expect(await outcome(() => assertMayListVan(w.shipper, w.d1.id, 'remaining'))).toBe(
      '403 You may only list your own remaining packages',
    );
  });

  it('the parcel of an action: a driver reaches any live parcel (deliver and fail judge it), others only their scope', async () => {
    const w = await world();
    const mine = await w.parcel('R-1', w.d1);
    const theirs = await w.parcel('R-2', w.d2);
    expect((await actionParcel(w.t.db, w.d1, mine)).hawb).toBe('R-1');
    // Another driver's parcel is handed to the services, which answer 404 or a named refusal (wasDriversParcel).
    expect((await actionParcel(w.t.db, w.d1, theirs)).hawb).toBe('R-2');
    expect((await actionParcel(w.t.db, w.shipper, mine)).hawb).toBe('R-1');
    expect(await outcome(() => actionParcel(w.t.db, w.other, mine))).toBe(`404 Package ${mine} not found`);
    expect(await outcome(() => actionParcel(w.t.db, w.d1, 99_999))).toBe('404 Package 99999 not found');

    // A failure photo: only while the parcel is the driver's.
    expect((await failurePhotoParcel(w.t.db, w.d1, mine)).id).toBe(mine);
    expect(await outcome(() => failurePhotoParcel(w.t.db, w.d1, theirs))).toBe(`404 Package ${theirs} not found`);
    expect((await failurePhotoParcel(w.t.db, w.admin, theirs)).id).toBe(theirs);
  });

  it('proof is changed by drivers and staff only, each within their reach', async () => {
    const w = await world();
    const mine = await w.parcel('P-1', w.d1);
    expect((await writableProofParcel(w.t.db, w.d1, mine)).id).toBe(mine);
    expect((await writableProofParcel(w.t.db, w.admin, mine)).id).toBe(mine);
    expect(await outcome(() => writableProofParcel(w.t.db, w.d2, mine))).toBe(`404 Package ${mine} not found`);
    // The company may read its parcel's proof, never change it.
    expect(await outcome(() => writableProofParcel(w.t.db, w.shipper, mine))).toBe('403 Only drivers and staff change delivery proof');
  });

  it('a no-parcel report is kept; the parcel its code names shows only to staff and to its driver', async () => {
    const w = await world();
    const id = await w.parcel('N-1', w.d1);
    const report = (who: SessionUser, code: string) =>
      atomically(w.t.app.deps, () => reportNoParcel(w.t.app.deps, scanContext(who, { note: 'torn' }, null), code));
    const own = await report(w.d1, 'N-1');
    expect(own.row?.id).toBe(id);
    expect(own.visible).toBe(true);
    expect(own.exception).toMatchObject({ code: 'N-1', action: 'no_parcel', actor: { id: w.d1.id }, note: 'torn', resolved: false });
    const notMine = await report(w.d2, 'N-1');
    expect([notMine.row?.id, notMine.visible]).toEqual([id, false]);
    expect((await report(w.supervisor, 'N-1')).visible).toBe(true);
    const unknown = await report(w.d2, 'N-404');
    expect([unknown.row, unknown.visible, unknown.exception.code]).toEqual([undefined, false, 'N-404']);
    // Every report stays on record, one id after another.
    expect([own, notMine, unknown].map((r) => r.exception.id)).toEqual([1, 2, 4]);
  });

  it('supervisor checks: today (UTC) unless a date is given, one supervisor when named', async () => {
    const w = await world();
    await w.parcel('C-1');
    const { token } = await w.t.login('supervisor');
    // Another supervisor checks the parcel: `supervisor` names whose checks to list.
    expect((await w.t.json('POST', '/api/scan-package-api/supervisor-scan/', token, { barcode: 'C-1' })).status).toBe(200);
    const deps = w.t.app.deps;
    const q = { page: 1, page_size: 10 };
    const day = new Date(w.t.clock.now()).toISOString().slice(0, 10);
    expect((await checkScans(deps, q, 'http://x/')).count).toBe(1);
    expect((await checkScans(deps, { ...q, date: day }, 'http://x/')).count).toBe(1);
    expect((await checkScans(deps, { ...q, supervisor: w.supervisor.id }, 'http://x/')).count).toBe(0);
    // Just before midnight UTC the check still belongs to its day; the next day has none.
    w.t.clock.set(Date.parse(`${day}T23:59:59.999Z`));
    expect((await checkScans(deps, q, 'http://x/')).count).toBe(1);
    w.t.clock.advance(1);
    expect((await checkScans(deps, q, 'http://x/')).count).toBe(0);
    expect((await checkScans(deps, { ...q, date: day }, 'http://x/')).count).toBe(1);
  });
});
