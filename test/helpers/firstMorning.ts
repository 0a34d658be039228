import type { TestApp } from './app';

/**
 * A courier's first morning on a brand-new database (test/server/concurrent-fresh.test.ts, and
 * bench/retries.ts counting what it costs PostgreSQL): `drivers` drivers, one parcel each, assigned,
 * then every driver scans at the same moment, then every driver delivers at the same moment.
 * Answers each request's status, in driver order.
 */
export async function firstMorning(
  t: TestApp,
  drivers = 30,
): Promise<{ parcels: { id: number; hawb: string }[]; created: number[]; assigned: number[]; scans: number[]; delivers: number[] }> {
  const admin = await t.login('admin');
  const shipper = await t.login('company');
  const team = [];
  for (let i = 0; i < drivers; i++) team.push(await t.login('driver'));
  const parcels: { id: number; hawb: string }[] = [];
  const created: number[] = [];
  const assigned: number[] = [];
  for (let i = 0; i < team.length; i++) {
    const hawb = `FRESH${String(i).padStart(4, '0')}`;
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb });
    created.push(res.status);
    parcels.push({ id: res.body.id, hawb });
    assigned.push(
      (await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: team[i]!.id, packages: [res.body.id] })).status,
    );
  }
  const scans = await Promise.all(
    team.map((d, i) => t.json('POST', '/api/scan-package-api/inbound-scan/', d.token, { barcode: parcels[i]!.hawb })),
  );
  const delivers = await Promise.all(
    team.map((d, i) => t.json('POST', `/api/package-delivered/${parcels[i]!.id}/deliver/`, d.token, { recipient_name: `Kim ${i}` })),
  );
  return { parcels, created, assigned, scans: scans.map((r) => r.status), delivers: delivers.map((r) => r.status) };
}
