import { describe, expect, it } from 'vitest';
import {
  addressKey,
  agreedPosition,
  needsReview,
  normaliseAddress,
  precisionOfPlace,
  readGeocodeAnswer,
  validCoordinates,
} from '../../shared/geo/address';

describe('address rules', () => {
  it('normalises spellings of one address to one key', () => {
    expect(normaliseAddress(' 12  Campbell Pde., BONDI ')).toBe('12 campbell parade bondi');
    expect(addressKey('7 Hall St.', 2026)).toBe(addressKey('7 HALL STREET', '2026'));
    expect(addressKey('7 Hall St', 2026)).not.toBe(addressKey('7 Hall St', 2027));
    expect(addressKey('  ', 2026)).toBeNull();
  });

  it('agrees on a position only when three different drivers are within 50 m; one driver is one vote', () => {
    const at = (driver: number, latitude: number, longitude = 151.273) => ({ driver, latitude, longitude });
    expect(agreedPosition([at(1, -33.891)])).toBeNull();
    // One phone, many deliveries: one vote.
    expect(agreedPosition([at(1, -33.891), at(1, -33.8911), at(1, -33.8912), at(1, -33.891)])).toBeNull();
    expect(agreedPosition([at(1, -33.891), at(2, -33.892), at(3, -33.893)])).toBeNull(); // 111 m apart
    const p = agreedPosition([at(9, -33.8, 151.1), at(1, -33.891), at(2, -33.8913, 151.2731), at(3, -33.8911)]);
    expect(p?.samples).toBe(3);
    expect(p?.latitude).toBeCloseTo(-33.89113, 5);
    // A learned position moves only to where more drivers agree than agree with it.
    const learned = { latitude: -33.8911, longitude: 151.273 };
    const honest = [at(1, -33.891), at(2, -33.8912), at(3, -33.8911)];
    expect(agreedPosition([at(7, -33.8), at(8, -33.8), at(9, -33.8), ...honest], learned)).toBeNull();
    expect(agreedPosition([at(6, -33.8), at(7, -33.8), at(8, -33.8), at(9, -33.8), ...honest], learned)?.latitude).toBeCloseTo(-33.8, 6);
  });

  it('validates caller coordinates and ranks precision', () => {
    expect(validCoordinates(0, 0)).toBe(false);
    expect(validCoordinates(-33.9, null)).toBe(false);
    expect(validCoordinates(-33.9, 151.2)).toBe(true);
    expect(['exact', 'street', 'suburb', 'postcode', 'none'].map((p) => needsReview(p as 'exact'))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('reads Nominatim and Photon answers', () => {
    expect(precisionOfPlace({ class: 'place', type: 'house', addresstype: 'place' })).toBe('exact');
    expect(precisionOfPlace({ class: 'highway', type: 'residential', addresstype: 'road' })).toBe('street');
    expect(precisionOfPlace({ class: 'place', type: 'suburb', addresstype: 'suburb' })).toBe('suburb');
    expect(precisionOfPlace({ class: 'place', type: 'postcode', addresstype: 'postcode' })).toBe('postcode');
    expect(readGeocodeAnswer([])).toBeNull();
    expect(
      readGeocodeAnswer([
        { lat: '-33.89', lon: '151.27', category: 'highway', type: 'residential', addresstype: 'road', display_name: 'Hall Street' },
      ]),
    ).toEqual({ latitude: -33.89, longitude: 151.27, precision: 'street', label: 'Hall Street' });
    const photon = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [151.27, -33.89] },
          properties: { osm_key: 'place', type: 'house', housenumber: '7', street: 'Hall Street', city: 'Sydney' },
        },
      ],
    };
    expect(readGeocodeAnswer(photon)).toEqual({ latitude: -33.89, longitude: 151.27, precision: 'exact', label: '7 Hall Street Sydney' });
    expect(() => readGeocodeAnswer({ error: 'nope' })).toThrow();
  });
});
