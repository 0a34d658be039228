import { OpenAPIHono } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { suburb } from '../../server/db/schema/index';
import type { AppEnv } from '../../server/http/env';
import { openApiDocument } from '../../server/http/openapi';
import { geoRoutes } from '../../server/routes/geo/index';
import { makeApp } from '../helpers/app';
import { create, seedChain } from './geo-helpers';

interface List<T = Record<string, unknown>> {
  count: number;
  results: T[];
}
interface ErrorBody {
  code: string;
  message: string;
  errors: { path: string; message: string }[];
}

describe('geography extras', () => {
  it("gives a country's currency, and every live country with its currency", async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const au = await create(t, token, 'country', { name: 'Australia', currency: 'AUD' });
    const nz = await create(t, token, 'country', { name: 'New Zealand', currency: 'NZD' });
    const old = await create(t, token, 'country', { name: 'Atlantis', currency: 'EUR' });
    await t.json('POST', '/api/country/archive-country/', token, { deleted: [old] });

    const one = await t.json('GET', `/api/country/${nz}/get-currency/`, token);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ country: nz, name: 'New Zealand', currency: 'NZD' });
    const all = await t.json<List>('GET', '/api/country/get-currency/', token);
    expect(all.body).toEqual({
      count: 2,
      results: [
        { country: au, name: 'Australia', currency: 'AUD' },
        { country: nz, name: 'New Zealand', currency: 'NZD' },
      ],
    });
    await t.json('PATCH', `/api/country/${au}/`, token, { currency: 'usd' });
    expect((await t.json('GET', `/api/country/${au}/get-currency/`, token)).body).toMatchObject({ currency: 'USD' });
    expect((await t.json('GET', '/api/country/4242/get-currency/', token)).status).toBe(404);
  });

  it('assigns many suburbs to a zone at once, all or nothing', async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const c = await seedChain(t, token);
    const west = await create(t, token, 'zone', { name: 'West' });
    const a = await create(t, token, 'suburb', { name: 'Parramatta', city: c.city });
    const b = await create(t, token, 'suburb', { name: 'Penrith', city: c.city });
    const gone = await create(t, token, 'suburb', { name: 'Ghost', city: c.city });
    await t.json('POST', '/api/suburb/archive-suburb/', token, { deleted: [gone] });

    const refused = await t.json<ErrorBody>('POST', '/api/suburb/assign-zone/', token, { zone: west, suburbs: [a, 9876, gone] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('9876');
    expect(refused.body.message).toContain(String(gone));
    expect((await t.db.select().from(suburb).where(eq(suburb.id, a)).get())?.zone_id).toBeNull();
    const noZone = await t.json<ErrorBody>('POST', '/api/suburb/assign-zone/', token, { zone: 777, suburbs: [a] });
    expect(noZone.status).toBe(400);
    expect(noZone.body.errors[0].path).toBe('zone');
    expect((await t.json('POST', '/api/suburb/assign-zone/', token, { zone: west, suburbs: [] })).status).toBe(400);

    const done = await t.json<{ count: number; results: { id: number; zone: number; zone_name: string }[] }>(
      'POST',
      '/api/suburb/assign-zone/',
      token,
      { zone: west, suburbs: [a, b, c.suburb, a] },
    );
    expect(done.status).toBe(200);
    expect(done.body.count).toBe(3);
    expect(done.body.results.every((s) => s.zone === west && s.zone_name === 'West')).toBe(true);
    const inWest = await t.json<List>('GET', `/api/suburb/?zone=${west}`, token);
    expect(inWest.body.count).toBe(3);
    // The zone now holds suburbs, so it cannot be deleted; `zone: null` empties it again.
    expect((await t.json('DELETE', `/api/zone/${west}/`, token)).status).toBe(409);
    const cleared = await t.json('PATCH', '/api/suburb/assign-zone/', token, { zone: null, suburbs: [a, b, c.suburb] });
    expect(cleared.status).toBe(200);
    expect((await t.json('DELETE', `/api/zone/${west}/`, token)).status).toBe(200);
  });

  it('filters zones by suburb and by pincode', async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const c = await seedChain(t, token);
    const north = await create(t, token, 'zone', { name: 'North' });
    const manly = await create(t, token, 'suburb', { name: 'Manly', city: c.city, zone: north, postcode: '2095' });
    const unzoned = await create(t, token, 'suburb', { name: 'Nowhere', city: c.city });
    // 2026 also covers a second suburb through a pincode record only.
    const tamarama = await create(t, token, 'suburb', { name: 'Tamarama', city: c.city, zone: north });
    await create(t, token, 'pincode', { code: '2026', suburb: tamarama });

    const bySuburb = await t.json<List<{ id: number; name: string; suburbs: number[] }>>(
      'GET',
      `/api/zone/by-suburb/?suburb=${c.suburb},${manly},${unzoned}`,
      token,
    );
    expect(bySuburb.status).toBe(200);
    expect(bySuburb.body.results.map((z) => [z.name, z.suburbs])).toEqual([
      ['East', [c.suburb]],
      ['North', [manly]],
    ]);
    expect((await t.json<List>('GET', `/api/zone/by-suburb/?suburb=${unzoned}`, token)).body.count).toBe(0);
    const unknown = await t.json<ErrorBody>('GET', '/api/zone/by-suburb/?suburb=4242', token);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('4242');
    for (const q of ['', '?suburb=', '?suburb=abc', '?suburb=-1']) {
      expect((await t.json('GET', `/api/zone/by-suburb/${q}`, token)).status, q).toBe(400);
    }

    const byPin = await t.json<List<{ name: string; suburbs: number[] }>>('GET', '/api/zone/by-pincode/?pincode=2026', token);
    expect(byPin.body.results.map((z) => [z.name, z.suburbs])).toEqual([
      ['East', [c.suburb]],
      ['North', [tamarama]],
    ]);
    // A suburb's own postcode counts even without a pincode record.
    const viaPostcode = await t.json<List<{ name: string }>>('GET', '/api/zone/by-pincode/?pincode=2095', token);
    expect(viaPostcode.body.results.map((z) => z.name)).toEqual(['North']);
    expect((await t.json<List>('GET', '/api/zone/by-pincode/?pincode=9999', token)).body).toEqual({ count: 0, results: [] });
    expect((await t.json('GET', '/api/zone/by-pincode/?pincode=%3Cscript%3E', token)).status).toBe(400);
    // Archived zones are no longer offered.
    await t.json('POST', '/api/zone/archive-zone/', token, { deleted: [north] });
    expect(
      (await t.json<List<{ name: string }>>('GET', '/api/zone/by-pincode/?pincode=2026', token)).body.results.map((z) => z.name),
    ).toEqual(['East']);
  });

  it('filters areas and pincodes by suburb', async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const c = await seedChain(t, token);
    const coogee = await create(t, token, 'suburb', { name: 'Coogee', city: c.city });
    const north = await create(t, token, 'area', { name: 'North Bondi', suburb: c.suburb });
    const old = await create(t, token, 'area', { name: 'Old Bondi', suburb: c.suburb });
    await t.json('POST', '/api/area/archive-area/', token, { deleted: [old] });
    const coogeeArea = await create(t, token, 'area', { name: 'Coogee Bay', suburb: coogee });
    await create(t, token, 'pincode', { code: '2034', suburb: coogee });

    const areas = await t.json<List<{ id: number; suburb_name: string }>>('GET', `/api/area/by-suburb/?suburb=${c.suburb}`, token);
    expect(areas.status).toBe(200);
    expect(areas.body.results.map((a) => a.id)).toEqual([c.area, north]);
    const both = await t.json<List<{ id: number }>>('GET', `/api/area/by-suburb/?suburb=${c.suburb},${coogee}`, token);
    expect(both.body.results.map((a) => a.id)).toEqual([c.area, coogeeArea, north]);
    expect((await t.json('GET', '/api/area/by-suburb/?suburb=4242', token)).status).toBe(400);

    const pins = await t.json<List<{ code: string; suburb: number }>>('GET', `/api/pincode/by-suburb/?suburb=${coogee}`, token);
    expect(pins.body).toMatchObject({ count: 1, results: [{ code: '2034', suburb: coogee, suburb_name: 'Coogee' }] });
    expect((await t.json('GET', '/api/pincode/by-suburb/', token)).status).toBe(400);
  });

  it('documents every geography operation in OpenAPI under its catalogue id', () => {
    // The module on its own, so the check does not depend on the other route modules' documents.
    const api = new OpenAPIHono<AppEnv>({ strict: true });
    geoRoutes(api);
    const doc = JSON.parse(JSON.stringify(openApiDocument(api))) as { paths: Record<string, Record<string, { 'x-catalogue'?: string[] }>> };
    const ids = new Set(Object.values(doc.paths).flatMap((p) => Object.values(p).flatMap((op) => op['x-catalogue'] ?? [])));
    const groups = ['Country', 'States', 'City', 'Suburb', 'Zone', 'Area', 'Street', 'Pincode'];
    const ops = ['Get', 'Create', 'Retrieve', 'Update', 'Delete', 'Archive/Archive List', 'Archive/Archive', 'Archive/Restore'];
    for (const g of groups) for (const o of ops) expect(ids.has(`web/Common/${g}/${o}`), `${g}/${o}`).toBe(true);
    for (const e of [
      'Country Get Currency',
      'Suburb Assign Multiple Suburbs to Zone',
      'Zone by Suburb Filter',
      'Zone by Pincode Filter',
      'Area by Suburb Filter',
      'Pincode by Suburb Filter',
      'Pincode Bulk Upload',
    ]) {
      expect(ids.has(`web/Common/Extras/${e}`), e).toBe(true);
    }
  });
});
