import { describe, expect, it } from 'vitest';
import { hawb, moneyWorld, shipper, type Json, type Page } from './money-fixtures';

describe('units of measurement', () => {
  it('admin manages units; others read; duplicates, bad input and referenced deletes are refused', async () => {
    const { t, admin } = await moneyWorld();
    const kg = await t.json<Json>('POST', '/api/unit-of-measurement/', admin.token, { name: 'Kilogram', symbol: 'kg', kg_factor: 1 });
    expect(kg.status).toBe(201);
    const lb = await t.json<Json>('POST', '/api/unit-of-measurement/', admin.token, { name: 'Pound', symbol: 'lb', kg_factor: 0.45359237 });
    expect(lb.body).toMatchObject({ symbol: 'lb', kg_factor: 0.45359237, is_active: true });

    expect((await t.json('POST', '/api/unit-of-measurement/', admin.token, { name: 'Kilo', symbol: 'KG', kg_factor: 1 })).status).toBe(409);
    const bad = await t.json('POST', '/api/unit-of-measurement/', admin.token, { name: 'Zero', symbol: 'z', kg_factor: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'validation_error' });

    const co = await shipper(t, 'prepaid');
    const list = await t.json<Page>('GET', '/api/unit-of-measurement/?ordering=symbol', co.token);
    expect(list.body.results.map((u) => u.symbol)).toEqual(['kg', 'lb']);
    expect((await t.json('POST', '/api/unit-of-measurement/', co.token, { name: 'Gram', symbol: 'g', kg_factor: 0.001 })).status).toBe(403);

    const upd = await t.json('PATCH', `/api/unit-of-measurement/${lb.body.id}/`, admin.token, { name: 'Pound (avdp)' });
    expect(upd.body).toMatchObject({ name: 'Pound (avdp)', symbol: 'lb' });
    expect((await t.json('GET', `/api/unit-of-measurement/${lb.body.id}/`, admin.token)).body).toMatchObject({ name: 'Pound (avdp)' });

    await t.json('POST', '/api/delivery-rate/', admin.token, { unit: lb.body.id, base_cents: 100 });
    expect((await t.json('DELETE', `/api/unit-of-measurement/${lb.body.id}/`, admin.token)).status).toBe(409);
    expect((await t.json('DELETE', `/api/unit-of-measurement/${kg.body.id}/`, admin.token)).status).toBe(200);
    expect((await t.json('GET', `/api/unit-of-measurement/${kg.body.id}/`, admin.token)).status).toBe(404);
    expect((await t.json('GET', '/api/unit-of-measurement/', null)).status).toBe(401);
  });
});

describe('delivery rates and rate cards', () => {
  it('prices by zone, weight band, volumetric weight, package type and unit; a company card replaces the default', async () => {
    const { t, admin, metro, rural, fragile } = await moneyWorld();
    const rate = async (body: Json) => {
      const r = await t.json<Json>('POST', '/api/delivery-rate/', admin.token, body);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as number;
    };
    const light = await rate({ name: 'Up to 5 kg', min_weight: 0, max_weight: 5, base_cents: 1000 });
    const heavy = await rate({ name: 'Over 5 kg', min_weight: 5, base_cents: 1000, per_unit_cents: 200 });
    const metroLine = await rate({ name: 'Metro', zone: metro, base_cents: 800, per_unit_cents: 100 });
    const fragileLine = await rate({ name: 'Fragile', package_type: fragile, base_cents: 1500 });

    const own = await shipper(t, 'prepaid');
    const other = await shipper(t, 'prepaid');
    const ownLine = await rate({ name: 'Own flat', company: own.companyId, base_cents: 500 });

    const quote = async (token: string, body: Json) => {
      const r = await t.json<Json>('POST', '/api/delivery-rate/quote/', token, body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };
    expect(await quote(other.token, { zone: metro, weight: 2 })).toMatchObject({
      price_cents: 1000,
      price: 10,
      rate: metroLine,
      source: 'default',
      currency: 'AUD',
    });
    expect(await quote(other.token, { zone: rural, weight: 2 })).toMatchObject({ price_cents: 1000, rate: light });
    expect(await quote(other.token, { zone: rural, weight: 7 })).toMatchObject({ price_cents: 1400, rate: heavy, extra_units: 2 });
    // 50 x 40 x 30 cm / 5000 = 12 kg volumetric, heavier than the 1 kg it weighs.
    expect(await quote(other.token, { zone: rural, weight: 1, length: 50, width: 40, height: 30 })).toMatchObject({
      price_cents: 2400,
      chargeable_weight: 12,
      volumetric_weight: 12,
    });
    // Zone beats package type; package type beats neither; names match case-insensitively.
    expect(await quote(other.token, { zone: rural, weight: 1, pkg_type: 'FRAGILE' })).toMatchObject({
      price_cents: 1500,
      rate: fragileLine,
    });
    expect(await quote(other.token, { zone: metro, weight: 1, package_type: fragile })).toMatchObject({ rate: metroLine });
    // A company with its own card is priced only from it, and cannot quote another's card.
    expect(await quote(own.token, { zone: metro, weight: 30 })).toMatchObject({ price_cents: 500, source: 'company' });
    expect((await t.json('POST', '/api/delivery-rate/quote/', own.token, { company: other.companyId, weight: 1 })).status).toBe(404);
    expect(await quote(admin.token, { company: own.companyId, weight: 1 })).toMatchObject({ price_cents: 500 });
    // Outside every band: no price rather than a guess.
    expect(await quote(admin.token, { currency: 'NZD', weight: 1 })).toMatchObject({ price_cents: null, rate: null, currency: 'NZD' });

    const card = await t.json<Json>('GET', `/api/delivery-rate/rate-card-by-company/${own.companyId}/`, own.token);
    expect(card.body).toMatchObject({ source: 'company', currency: 'AUD' });
    expect((card.body.rates as Json[]).map((r) => r.base_cents)).toEqual([500]);
    const dflt = await t.json<Json>('GET', `/api/delivery-rate/rate-card-by-company/${other.companyId}/`, admin.token);
    expect(dflt.body.source).toBe('default');
    expect((dflt.body.rates as Json[]).length).toBe(4);
    expect((await t.json('GET', `/api/delivery-rate/rate-card-by-company/${other.companyId}/`, own.token)).status).toBe(404);

    const filtered = await t.json<{ count: number; results: Json[] }>(
      'GET',
      `/api/delivery-rate/filter/?zone=${rural}&weight=7`,
      admin.token,
    );
    expect(filtered.body.results.map((r) => r.id).sort()).toEqual([heavy, fragileLine, ownLine].sort());
    const forOwn = await t.json<{ count: number; results: Json[] }>(
      'GET',
      `/api/delivery-rate/filter/?company=${own.companyId}`,
      admin.token,
    );
    expect(forOwn.body.results.map((r) => r.base_cents)).toEqual([500]);
    expect((await t.json('GET', '/api/delivery-rate/filter/?weight=heavy', admin.token)).status).toBe(400);

    // A company sees the default card and its own lines, never another company's.
    await rate({ name: 'Other flat', company: other.companyId, base_cents: 450 });
    const seen = await t.json<Page>('GET', '/api/delivery-rate/', own.token);
    expect(seen.body.results.map((r) => r.company).filter((c) => c != null)).toEqual([own.companyId]);
  });

  it('packages are priced on creation from the card, in the unit of the line', async () => {
    const { t, admin } = await moneyWorld();
    const lb = await t.json<Json>('POST', '/api/unit-of-measurement/', admin.token, { name: 'Pound', symbol: 'lb', kg_factor: 0.45359237 });
    const co = await shipper(t, 'postpaid');
    await t.json('POST', '/api/delivery-rate/', admin.token, {
      company: co.companyId,
      unit: lb.body.id,
      base_cents: 300,
      per_unit_cents: 50,
    });
    // 2 kg = 4.409 lb: five started pounds above the band start.
    const p = await t.json<Json>('POST', '/api/package/', co.token, { hawb: hawb(), weight: 2 });
    expect(p.status).toBe(201);
    expect(p.body.price).toBe(5.5);
    const q = await t.json<Json>('POST', '/api/delivery-rate/quote/', co.token, { weight: 2 });
    expect(q.body).toMatchObject({ price_cents: 550, units: 4.409, extra_units: 5 });
    // The package group's Get Price reads the same cards.
    const byPackage = await t.json<Json>('GET', `/api/package/${p.body.id}/price/`, co.token);
    expect(byPackage.body).toMatchObject({ amount: 550, price: 5.5, currency: 'AUD', chargeable_weight: 2 });
    expect((await t.json<Json>('POST', '/api/package/price/', co.token, { weight: 2 })).body).toMatchObject({ amount: 550 });
    const uncovered = await t.json<Json>('POST', '/api/package/price/', admin.token, { weight: 2 });
    expect(uncovered.status).toBe(404);
  });

  it('refuses bad rates, other currencies, writes by non-admins and unknown references', async () => {
    const { t, admin } = await moneyWorld();
    const co = await shipper(t, 'prepaid', 'NZD');
    const post = (token: string, body: Json) => t.json<Json>('POST', '/api/delivery-rate/', token, body);
    expect((await post(admin.token, { base_cents: -1 })).status).toBe(400);
    expect((await post(admin.token, { base_cents: 1.5 })).status).toBe(400);
    expect((await post(admin.token, { base_cents: 100, min_weight: 5, max_weight: 5 })).status).toBe(400);
    expect((await post(admin.token, { base_cents: 100, company: co.companyId, currency: 'AUD' })).status).toBe(400);
    expect((await post(admin.token, { base_cents: 100, zone: 99999 })).status).toBe(400);
    expect((await post(co.token, { base_cents: 100 })).status).toBe(403);
    const ok = await post(admin.token, { base_cents: 100, company: co.companyId });
    expect(ok.body).toMatchObject({ currency: 'NZD', company: co.companyId });
    const id = ok.body.id as number;
    expect((await t.json('PATCH', `/api/delivery-rate/${id}/`, admin.token, { currency: 'AUD' })).status).toBe(400);
    const upd = await t.json<Json>('PATCH', `/api/delivery-rate/${id}/`, admin.token, { base_cents: 120 });
    expect(upd.body).toMatchObject({ base_cents: 120, currency: 'NZD' });
    const driver = await t.login('driver');
    expect((await t.json('GET', '/api/delivery-rate/', driver.token)).status).toBe(403);
    expect((await t.json('DELETE', `/api/delivery-rate/${id}/`, admin.token)).status).toBe(200);
    expect((await t.json('GET', `/api/delivery-rate/${id}/`, admin.token)).status).toBe(404);
  });
});

describe('driver delivery rates', () => {
  it('admin manages what drivers earn; companies and drivers never see it', async () => {
    const { t, admin, metro } = await moneyWorld();
    const driver = await t.login('driver');
    const created = await t.json<Json>('POST', '/api/driver-delivery-rate/', admin.token, {
      name: 'Standard',
      amount_cents: 450,
      effective_from: '2026-01-01',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      driver: null,
      amount_cents: 450,
      currency: 'AUD',
      effective_from: '2026-01-01T00:00:00.000Z',
      effective_to: null,
    });
    const special = await t.json<Json>('POST', '/api/driver-delivery-rate/', admin.token, {
      driver: driver.id,
      zone: metro,
      amount_cents: 600,
      effective_from: '2026-01-01',
      effective_to: '2026-02-01',
    });
    expect(special.status).toBe(201);
    const list = await t.json<Page>(`GET`, `/api/driver-delivery-rate/?driver=${driver.id}`, admin.token);
    expect(list.body.count).toBe(1);
    const upd = await t.json<Json>('PATCH', `/api/driver-delivery-rate/${special.body.id}/`, admin.token, { amount_cents: 650 });
    expect(upd.body.amount_cents).toBe(650);

    expect(
      (await t.json('PATCH', `/api/driver-delivery-rate/${special.body.id}/`, admin.token, { effective_to: '2025-12-01' })).status,
    ).toBe(400);
    expect((await t.json('POST', '/api/driver-delivery-rate/', admin.token, { driver: admin.id, amount_cents: 1 })).status).toBe(400);
    expect((await t.json('POST', '/api/driver-delivery-rate/', admin.token, { amount_cents: '450' })).status).toBe(400);

    const co = await shipper(t, 'prepaid');
    expect((await t.json<Page>('GET', '/api/driver-delivery-rate/', co.token)).body.count).toBe(0);
    expect((await t.json('GET', `/api/driver-delivery-rate/${created.body.id}/`, co.token)).status).toBe(404);
    expect((await t.json('GET', '/api/driver-delivery-rate/', driver.token)).status).toBe(403);
    expect((await t.json('POST', '/api/driver-delivery-rate/', co.token, { amount_cents: 1 })).status).toBe(403);
    expect((await t.json('DELETE', `/api/driver-delivery-rate/${created.body.id}/`, admin.token)).status).toBe(200);
  });
});
