import { expect } from 'vitest';
import type { TestApp } from '../helpers/app';

export interface GeoChain {
  country: number;
  state: number;
  city: number;
  zone: number;
  suburb: number;
  area: number;
  street: number;
  pincode: number;
}

/** POST that must succeed; answers the new record's id. */
export async function create(t: TestApp, token: string, path: string, body: Record<string, unknown>): Promise<number> {
  const res = await t.json<{ id: number }>('POST', `/api/${path}/`, token, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.id;
}

/** One record at every level: Australia > New South Wales > Sydney > Bondi (zone East) > Bondi Beach > Campbell Pde, 2026. */
export async function seedChain(t: TestApp, token: string): Promise<GeoChain> {
  const country = await create(t, token, 'country', { name: 'Australia', iso2: 'AU', currency: 'AUD' });
  const state = await create(t, token, 'state', { name: 'New South Wales', code: 'NSW', country });
  const city = await create(t, token, 'city', { name: 'Sydney', state });
  const zone = await create(t, token, 'zone', { name: 'East', code: 'E1' });
  const suburb = await create(t, token, 'suburb', { name: 'Bondi', state, city, zone, postcode: '2026' });
  const area = await create(t, token, 'area', { name: 'Bondi Beach', suburb });
  const street = await create(t, token, 'street', { name: 'Campbell Pde', area });
  const pincode = await create(t, token, 'pincode', { code: '2026', suburb });
  return { country, state, city, zone, suburb, area, street, pincode };
}
