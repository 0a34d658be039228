import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sqliteOf } from '../../server/db/client';
import { answerStoreDrift, installAnswerStore } from '../../server/db/engine/sqliteAnswers';
import { company, failedDeliveryStatus, user, zone } from '../../server/db/schema/index';
import { answerSource } from '../../server/db/engine/packageAnswer';
import { makeApp } from '../helpers/app';
import { answerDrift, storedAnswer } from '../helpers/answers';

/**
 * Stored answers (server/db/engine/answerStore.ts, both engines): a live parcel's answer is kept by
 * triggers through every kind of change its JSON shows; an ended parcel's is built when read.
 * (Every other test also checks the store after it runs: test/helpers/app.ts.)
 */
const onSqlite = !process.env.TEST_DATABASE_URL;

describe('answer store', () => {
  it('follows a parcel through edits, renames of what it shows, a failed attempt and delivery', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver', { name: 'Dana' });
    const companyId = await t.company('Shipper Co');
    const shipper = await t.login('company', { companyId });
    const now = t.clock.now();
    const zoneId = (await t.db.insert(zone).values({ name: 'North', created_at: now, updated_at: now }).returning().get()).id;
    const reason = (
      await t.db.insert(failedDeliveryStatus).values({ name: 'Nobody home', created_at: now, updated_at: now }).returning().get()
    ).id;
    const stored = (id: number) => storedAnswer(t.db, id);
    const read = async (id: number) => (await t.json<Record<string, unknown>>('GET', `/api/package/${id}/`, admin.token)).body;

    const id = (await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb: 'AS-1', postcode: 3000 })).body.id;
    expect(await stored(id)).toEqual(await read(id));
    expect((await t.json('PATCH', `/api/package/${id}/`, admin.token, { customer_name: 'Ann' })).status).toBe(200);
    expect(
      (await t.json('POST', `/api/package/${id}/zone-override/`, admin.token, { zone: zoneId, reason: 'North run this week' })).status,
    ).toBe(200);
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [id] })).status).toBe(
      200,
    );
    expect(await stored(id)).toMatchObject({ zone_name: 'North', customer_name: 'Ann', assigned_to: { id: driver.id, name: 'Dana' } });

    // What the answer shows by name changes elsewhere: the stored answer follows.
    await t.db.update(zone).set({ name: 'North-East' }).where(eq(zone.id, zoneId)).run();
    await t.db.update(user).set({ name: 'Dana K' }).where(eq(user.id, driver.id)).run();
    await t.db.update(company).set({ name: 'Renamed Pty Ltd' }).where(eq(company.id, companyId)).run();
    expect(await stored(id)).toMatchObject({ zone_name: 'North-East', company_name: 'Renamed Pty Ltd', assigned_to: { name: 'Dana K' } });
    expect(await answerDrift(t.db)).toBe(0);

    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: 'AS-1' })).status).toBe(200);
    expect(
      (await t.json('POST', `/api/package-delivered/${id}/fail/`, driver.token, { failed_delivery_status: reason, note: 'door locked' }))
        .status,
    ).toBe(200);
    expect((await stored(id))!.package_failed_delivery_status).toMatchObject([{ id: reason, name: 'Nobody home', note: 'door locked' }]);
    expect(await stored(id)).toEqual(await read(id));

    // Delivered: the stored answer goes; reads build it, the same as before.
    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: 'AS-1' })).status).toBeLessThan(500);
    const done = await t.json('POST', `/api/package-delivered/${id}/deliver/`, driver.token, { recipient_name: 'Ann' });
    expect(done.status).toBe(200);
    expect(await stored(id)).toBeUndefined();
    expect(await read(id)).toMatchObject({ id, status: 'delivered', zone_name: 'North-East' });
  });

  it.runIf(onSqlite)('SQLite: a missed case is seen; a database made by another answer expression is rebuilt when opened', async () => {
    const t = await makeApp();
    const sqlite = sqliteOf(t.db)!;
    const shipper = await t.login('company');
    const id = (await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb: 'AS-2', postcode: 3000 })).body.id;
    const triggers = () =>
      sqlite.prepare("select name from sqlite_master where type = 'trigger' and name like 'package_answer_%'").pluck().all() as string[];
    const update = triggers().find((n) => n.endsWith('_update'))!;

    // Without its update trigger the store goes stale, and the check says so.
    sqlite.exec(`drop trigger "${update}"`);
    await t.db.run(sql`update package set customer_name = 'Changed' where id = ${id}`);
    expect(answerStoreDrift(sqlite, answerSource('sqlite'))).toBe(1);

    // Triggers of another expression (an older server) are replaced and every live answer rebuilt.
    for (const n of triggers()) sqlite.exec(`drop trigger "${n}"`);
    sqlite.exec('create trigger package_answer_0ld_update after update on package begin select 1; end');
    installAnswerStore(sqlite, answerSource('sqlite'));
    expect(triggers().some((n) => n.startsWith('package_answer_0ld'))).toBe(false);
    expect(answerStoreDrift(sqlite, answerSource('sqlite'))).toBe(0);
    expect(JSON.parse(sqlite.prepare('select json from package_answer where package_id = ?').pluck().get(id) as string)).toMatchObject({
      customer_name: 'Changed',
    });
  });

  it.runIf(onSqlite)(
    "SQLite: a driver's remaining and scanned lists read only parcels in play, in order, from their partial index",
    async () => {
      const t = await makeApp();
      const sqlite = sqliteOf(t.db)!;
      const driver = await t.login('driver');
      const seen: string[] = [];
      t.db.$engine.onStatement = (text) => {
        seen.push(text);
      };
      for (const list of ['remaining', 'scanned']) {
        seen.length = 0;
        expect((await t.json('GET', `/api/scan-package-api/${driver.id}/${list}-packages-list/`, driver.token)).status).toBe(200);
        const query = seen.find((q) => q.includes('"package_answer"'))!;
        const plan = (
          sqlite.prepare(`explain query plan ${query}`).all(...Array((query.match(/\?/g) ?? []).length).fill(1)) as { detail: string }[]
        ).map((r) => r.detail);
        expect(plan[0], list).toMatch(/USING (COVERING )?INDEX package_live_driver_idx/);
        expect(plan.join(' | '), list).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      }
      t.db.$engine.onStatement = null;
    },
  );
});
