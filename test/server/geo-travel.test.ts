import { afterEach, describe, expect, it } from 'vitest';
import { travelMatrix } from '../../server/services/geo/travelTimes';
import { haversineDistance, type LatLng } from '../../shared/routing/haversine';
import { greatCircleProvider, osrmTableProvider, TravelTimeError } from '../../shared/routing/provider';
import { makeApp } from '../helpers/app';
import { sendJson, standIn } from './geo-standins';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

const sydney: LatLng[] = [
  { latitude: -33.8688, longitude: 151.2093 },
  { latitude: -33.8915, longitude: 151.2767 },
  { latitude: -33.7969, longitude: 151.284 },
  { latitude: -33.9173, longitude: 151.2313 },
  { latitude: -33.815, longitude: 151.0011 },
];

/**
 * An OSRM stand-in speaking /table/v1/{profile}/{lng,lat;...}?sources&destinations: durations are
 * straight-line metres ÷ 10 (a 36 km/h crow), so every cell can be checked.
 */
async function osrm(mode: { status?: number; body?: unknown; hang?: boolean; unroutable?: [number, number] } = {}) {
  const s = await standIn((url, _req, res) => {
    if (mode.hang) return undefined;
    if (mode.status) return sendJson(res, mode.status, mode.body ?? { code: 'InvalidQuery', message: 'Query string malformed' });
    const m = /^\/table\/v1\/([a-z]+)\/(.+)$/.exec(url.pathname);
    if (!m) return sendJson(res, 400, { code: 'InvalidUrl', message: 'URL string malformed' });
    const coords = decodeURIComponent(m[2])
      .split(';')
      .map((c) => {
        const [lng, lat] = c.split(',').map(Number);
        return { latitude: lat, longitude: lng };
      });
    const pick = (k: string) => (url.searchParams.get(k) ?? coords.map((_, i) => i).join(';')).split(';').map(Number);
    const sources = pick('sources');
    const targets = pick('destinations');
    const durations = sources.map((a) =>
      targets.map((b) =>
        mode.unroutable && coords[a] === coords[mode.unroutable[0]] && coords[b] === coords[mode.unroutable[1]]
          ? null
          : Math.round((haversineDistance(coords[a], coords[b]) / 10) * 10) / 10,
      ),
    );
    return sendJson(res, 200, {
      code: 'Ok',
      durations,
      sources: sources.map((i) => ({ location: [coords[i].longitude, coords[i].latitude] })),
    });
  });
  closers.push(s.close);
  return s;
}
const expected = (i: number, j: number) => Math.round((haversineDistance(sydney[i], sydney[j]) / 10) * 10) / 10;

describe('travel times', () => {
  it('OSRM table: asks in blocks within max-table-size and assembles the whole matrix', async () => {
    const s = await osrm();
    const m = await osrmTableProvider({ baseUrl: s.url, maxTableSize: 4 }).matrix(sydney);
    expect(s.requests.length).toBe(9); // 5 points in blocks of 2: 3 × 3 requests
    expect(s.requests[0].pathname.startsWith('/table/v1/driving/151.209300,-33.868800;')).toBe(true);
    expect(s.requests[0].searchParams.get('annotations')).toBe('duration');
    for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) expect(m[i][j]).toBe(i === j ? 0 : expected(i, j));
  });

  it('OSRM failures: an error answer, a timeout, an unroutable pair', async () => {
    const bad = await osrm({ status: 400 });
    await expect(osrmTableProvider({ baseUrl: bad.url }).matrix(sydney)).rejects.toThrow(/InvalidQuery/);
    const broken = await osrm({ status: 500, body: 'oops' });
    await expect(osrmTableProvider({ baseUrl: broken.url }).matrix(sydney)).rejects.toBeInstanceOf(TravelTimeError);
    const hung = await osrm({ hang: true });
    await expect(osrmTableProvider({ baseUrl: hung.url, timeoutMs: 150 }).matrix(sydney)).rejects.toThrow(/too slow/);
    const gap = await osrm({ unroutable: [0, 4] });
    await expect(osrmTableProvider({ baseUrl: gap.url }).matrix(sydney)).rejects.toThrow(/cannot route 0 -> 4/);
    const filled = await osrmTableProvider({ baseUrl: gap.url, unroutable: { speedKmh: 30, detourFactor: 1.3 } }).matrix(sydney);
    expect(filled[0][4]).toBeCloseTo((haversineDistance(sydney[0], sydney[4]) * 1.3) / (30 / 3.6), 6);
    expect(filled[4][0]).toBe(expected(4, 0));
  });

  it('the server: OSRM when configured, cached per day; the great-circle estimate by default and when OSRM fails', async () => {
    const t = await makeApp();
    const deps = t.app.deps;
    // Default: great-circle × 1.3 at 30 km/h, in seconds.
    const gc = await travelMatrix(deps, sydney, '2026-03-02');
    expect(gc.source).toBe('great-circle:30:1.3');
    expect(gc.matrix[0][1]).toBeCloseTo((haversineDistance(sydney[0], sydney[1]) * 1.3) / (30 / 3.6), 6);
    expect(gc.matrix).toEqual(await greatCircleProvider({ speedKmh: 30, detourFactor: 1.3 }).matrix(sydney));

    const s = await osrm();
    deps.config.osrmUrl = s.url;
    const first = await travelMatrix(deps, sydney, '2026-03-02');
    expect(first).toMatchObject({ source: 'osrm:driving', cached: false, fallback: null });
    expect(first.matrix[2][3]).toBe(expected(2, 3));
    const again = await travelMatrix(deps, sydney, '2026-03-02');
    expect(again).toMatchObject({ cached: true });
    expect(again.matrix).toEqual(first.matrix);
    expect(s.requests).toHaveLength(1);
    await travelMatrix(deps, sydney, '2026-03-03');
    await travelMatrix(deps, sydney.slice(0, 3), '2026-03-03');
    expect(s.requests).toHaveLength(3);

    const down = await osrm({ status: 503, body: { code: 'Error', message: 'overloaded' } });
    deps.config.osrmUrl = down.url;
    const fell = await travelMatrix(deps, sydney, '2026-03-04');
    expect(fell.source).toBe('great-circle:30:1.3');
    expect(fell.fallback).toMatch(/overloaded/);
    expect(fell.matrix).toEqual(gc.matrix);
    // Not cached: the road engine is asked again next time.
    await travelMatrix(deps, sydney, '2026-03-04');
    expect(down.requests).toHaveLength(2);
  });
});
