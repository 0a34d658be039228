import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app';
import { create, seedChain, type GeoChain } from './geo-helpers';

type Body = Record<string, unknown>;
interface Page {
  count: number;
  results: Body[];
}

interface Group {
  path: string;
  /** The text field search and ordering use. */
  field: 'name' | 'code';
  values: [string, string];
  body: (c: GeoChain, value: string) => Body;
  /** A list filter that holds both new records, and one that holds none of them. */
  filter: (c: GeoChain) => [string, string];
  /** A record that refers to the given one, so deleting it must be refused. */
  child?: (c: GeoChain, id: number) => [string, Body];
}

const GROUPS: Group[] = [
  {
    path: 'country',
    field: 'name',
    values: ['Alphaland', 'Betaland'],
    body: (_, name) => ({ name, currency: 'EUR' }),
    filter: () => ['currency=EUR', 'currency=JPY'],
    child: (_, id) => ['state', { name: 'Province', country: id }],
  },
  {
    path: 'state',
    field: 'name',
    values: ['Alpha State', 'Beta State'],
    body: (c, name) => ({ name, country: c.country }),
    filter: (c) => [`country=${c.country}`, `country=${c.country + 1000}`],
    child: (_, id) => ['city', { name: 'Town', state: id }],
  },
  {
    path: 'city',
    field: 'name',
    values: ['Alpha City', 'Beta City'],
    body: (c, name) => ({ name, state: c.state }),
    filter: (c) => [`state=${c.state}`, `state=${c.state + 1000}`],
    child: (_, id) => ['suburb', { name: 'Burb', city: id }],
  },
  {
    path: 'zone',
    field: 'name',
    values: ['Alpha Zone', 'Beta Zone'],
    body: (_, name) => ({ name, description: 'north side' }),
    filter: () => ['is_active=true', 'is_active=false'],
    child: (c, id) => ['suburb', { name: 'Zoned', state: c.state, zone: id }],
  },
  {
    path: 'suburb',
    field: 'name',
    values: ['Alpha Burb', 'Beta Burb'],
    body: (c, name) => ({ name, state: c.state, city: c.city, postcode: '2000' }),
    filter: (c) => [`city=${c.city}&postcode=2000`, 'postcode=9999'],
    child: (_, id) => ['area', { name: 'Corner', suburb: id }],
  },
  {
    path: 'area',
    field: 'name',
    values: ['Alpha Area', 'Beta Area'],
    body: (c, name) => ({ name, suburb: c.suburb }),
    filter: (c) => [`suburb=${c.suburb}`, `suburb=${c.suburb + 1000}`],
    child: (_, id) => ['street', { name: 'Lane', area: id }],
  },
  {
    path: 'street',
    field: 'name',
    values: ['Alpha St', 'Beta St'],
    body: (c, name) => ({ name, area: c.area }),
    filter: (c) => [`area=${c.area}`, `area=${c.area + 1000}`],
  },
  {
    path: 'pincode',
    field: 'code',
    values: ['A100', 'B200'],
    body: (c, code) => ({ code, suburb: c.suburb }),
    filter: (c) => [`suburb=${c.suburb}`, `suburb=${c.suburb + 1000}`],
  },
];

async function walk(t: TestApp, token: string, chain: GeoChain, g: Group): Promise<void> {
  const base = `/api/${g.path}/`;
  const [a, b] = g.values;
  const idA = await create(t, token, g.path, { ...g.body(chain, a), is_active: true });
  const idB = await create(t, token, g.path, g.body(chain, b));

  const found = await t.json<Page>('GET', `${base}?search=${a.slice(0, 4).toLowerCase()}`, token);
  expect(found.status).toBe(200);
  expect(found.body.results.map((r) => r.id)).toEqual([idA]);
  const ordered = await t.json<Page>('GET', `${base}?ordering=-${g.field}&page_size=500`, token);
  const positions = ordered.body.results.map((r) => r.id);
  expect(positions.indexOf(idB)).toBeLessThan(positions.indexOf(idA));
  const [holds, holdsNone] = g.filter(chain);
  const filtered = await t.json<Page>('GET', `${base}?${holds}&page_size=500`, token);
  expect(filtered.status).toBe(200);
  expect(filtered.body.results.map((r) => r.id)).toEqual(expect.arrayContaining([idA, idB]));
  const none = await t.json<Page>('GET', `${base}?${holdsNone}`, token);
  expect(none.body.results.map((r) => r.id)).not.toContain(idA);
  const paged = await t.json<Page & { next: string | null }>('GET', `${base}?page_size=1`, token);
  expect(paged.body.results).toHaveLength(1);
  expect(paged.body.next).toContain('page=2');

  // A PATCH changes only what it sends: the inactive flag survives a rename.
  await t.json('PATCH', `${base}${idB}/`, token, { is_active: false });
  const renamed = g.field === 'code' ? 'B300' : `${b} Renamed`;
  const updated = await t.json<Body>('PATCH', `${base}${idB}/`, token, { [g.field]: renamed });
  expect(updated.status).toBe(200);
  expect(updated.body).toMatchObject({ id: idB, [g.field]: renamed, is_active: false });
  const put = await t.json<Body>('PUT', `${base}${idB}/`, token, { [g.field]: renamed });
  expect(put.status).toBe(200);

  const archived = await t.json('POST', `${base}archive-${g.path}/`, token, { deleted: [idA] });
  expect(archived.status).toBe(200);
  const live = await t.json<Page>('GET', `${base}?page_size=500`, token);
  expect(live.body.results.map((r) => r.id)).not.toContain(idA);
  const archiveList = await t.json<Page>('GET', `${base}archive-${g.path}-list/`, token);
  expect(archiveList.body.results.map((r) => r.id)).toEqual([idA]);
  expect((await t.json('GET', `${base}${idA}/`, token)).status).toBe(200);
  const unknown = await t.json<{ errors: unknown[] }>('POST', `${base}restore-${g.path}/`, token, { deleted: [idA, 99999] });
  expect(unknown.status).toBe(400);
  expect(JSON.stringify(unknown.body)).toContain('99999');
  const restored = await t.json<{ count: number; results: { success: boolean; data: Body[] } }>(
    'POST',
    `${base}restore-${g.path}/`,
    token,
    { deleted: [idA] },
  );
  expect(restored.status).toBe(200);
  expect(restored.body).toMatchObject({ count: 1, next: null, previous: null, results: { success: true } });
  expect(restored.body.results.data[0]).toMatchObject({ id: idA, [g.field]: a });
  expect((await t.json<Page>('GET', `${base}archive-${g.path}-list/`, token)).body.count).toBe(0);

  if (g.child) {
    const [childPath, childBody] = g.child(chain, idA);
    const childId = await create(t, token, childPath, childBody);
    const refused = await t.json('DELETE', `${base}${idA}/`, token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: 'conflict' });
    // Archiving instead keeps the child's reference valid.
    expect((await t.json('POST', `${base}archive-${g.path}/`, token, { deleted: [idA] })).status).toBe(200);
    expect((await t.json('GET', `/api/${childPath}/${childId}/`, token)).status).toBe(200);
    expect((await t.json('PATCH', `/api/${childPath}/${childId}/`, token, { name: 'Kept' })).status).toBe(200);
  }
  const gone = await t.json('DELETE', `${base}${idB}/`, token);
  expect(gone.status).toBe(200);
  expect((await t.json('GET', `${base}${idB}/`, token)).status).toBe(404);
}

describe("geography groups: a user's whole path", () => {
  for (const g of GROUPS) {
    it(`${g.path}: create, search, order, filter, update, archive, restore, delete refused while referenced`, async () => {
      const t = await makeApp();
      const admin = await t.login('admin');
      const chain = await seedChain(t, admin.token);
      await walk(t, admin.token, chain, g);
    });
  }

  it('answers records with their parents named', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const c = await seedChain(t, admin.token);
    const suburb = await t.json('GET', `/api/suburb/${c.suburb}/`, admin.token);
    expect(suburb.body).toMatchObject({
      id: c.suburb,
      name: 'Bondi',
      state: c.state,
      state_name: 'New South Wales',
      city: c.city,
      city_name: 'Sydney',
      zone: c.zone,
      zone_name: 'East',
      postcode: '2026',
      latitude: null,
      is_active: true,
    });
    const pin = await t.json('GET', `/api/pincode/${c.pincode}/`, admin.token);
    expect(pin.body).toMatchObject({
      code: '2026',
      suburb: c.suburb,
      suburb_name: 'Bondi',
      state: c.state,
      zone: c.zone,
      zone_name: 'East',
    });
    const street = await t.json('GET', `/api/street/${c.street}/`, admin.token);
    expect(street.body).toMatchObject({ name: 'Campbell Pde', area: c.area, area_name: 'Bondi Beach' });
  });
});
