import { describe, expect, it } from 'vitest';
import { addressKey, agreedPosition, needsReview, normaliseAddress, precisionOfPlace, readGeocodeAnswer, validCoordinates } from '../../shared/geo/address';

describe('address rules', () => {
  it('normalises spellings of one address to one key', () => {
    expect(normaliseAddress(' 12  Campbell Pde., BONDI ')).toBe('12 campbell parade bondi');
    expect(addressKey('7 Hall St.', 2026)).toBe(addressKey('7 HALL STREET', '2026'));
    expect(addressKey('7 Hall St', 2026)).not.toBe(addressKey('7 Hall St', 2027));
    expect(addressKey('  ', 2026)).toBeNull();
  });

  it('agrees on a position only when two sightings are within 50 m', () => {
    expect(agreedPosition([{ latitude: -33.8910, longitude: 151.2730 }])).toBeNull();
    expect(agreedPosition([{ latitude: -33.8910, longitude: 151.2730 }, { latitude: -33.8920, longitude: 151.2730 }])).toBeNull(); // 111 m
    const p = agreedPosition([{ latitude: -33.80, longitude: 151.1 }, { latitude: -33.8910, longitude: 151.2730 }, { latitude: -33.8913, longitude: 151.2731 }]);
    expect(p?.samples).toBe(2);
    expect(p?.latitude).toBeCloseTo(-33.89115, 6);
  });

  it('validates caller coordinates and ranks precision', () => {
    expect(validCoordinates(0, 0)).toBe(false);
    expect(validCoordinates(-33.9, null)).toBe(false);
    expect(validCoordinates(-33.9, 151.2)).toBe(true);
    expect(['exact', 'street', 'suburb', 'postcode', 'none'].map((p) => needsReview(p as 'exact'))).toEqual([false, false, true, true, true]);
  });

  it('reads Nominatim and Photon answers', () => {
    expect(precisionOfPlace({ class: 'place', type: 'house', addresstype: 'place' })).toBe('exact');
    expect(precisionOfPlace({ class: 'highway', type: 'residential', addresstype: 'road' })).toBe('street');
    expect(precisionOfPlace({ class: 'place', type: 'suburb', addresstype: 'suburb' })).toBe('suburb');
    expect(precisionOfPlace({ class: 'place', type: 'postcode', addresstype: 'postcode' })).toBe('postcode');
    expect(readGeocodeAnswer([])).toBeNull();
    expect(readGeocodeAnswer([{ lat: '-33.89', lon: '151.27', category: 'highway', type: 'residential', addresstype: 'road', display_name: 'Hall Street' }]))
      .toEqual({ latitude: -33.89, longitude: 151.27, precision: 'street', label: 'Hall Street' });
    const photon = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [151.27, -33.89] },
      properties: { osm_key: 'place', type: 'house', housenumber: '7', street: 'Hall Street', city: 'Sydney' } }] };
    expect(readGeocodeAnswer(photon)).toEqual({ latitude: -33.89, longitude: 151.27, precision: 'exact', label: '7 Hall Street Sydney' });
    expect(() => readGeocodeAnswer({ error: 'nope' })).toThrow();
  });
});
