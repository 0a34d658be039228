/** Issue 19 item 6: the address line never repeats what the typed address already says. */
import { describe, expect, it } from 'vitest';
import { addressOf } from '../../client/driver/maps';

const p = (customer_address: string | null, suburb_name: string | null, postcode: number | null, state_name: string | null) => ({
  customer_address,
  suburb_name,
  postcode_name: null,
  postcode,
  state_name,
});

describe('addressOf', () => {
  it('adds suburb, postcode and state only when the street line lacks them', () => {
    expect(addressOf(p('1 George St, Sydney NSW 2000', 'Sydney', 2000, 'NSW'))).toBe('1 George St, Sydney NSW 2000');
    expect(addressOf(p('1 George St', 'Sydney', 2000, 'NSW'))).toBe('1 George St, Sydney, 2000, NSW');
    expect(addressOf(p('1 George St, sydney', 'Sydney', 2000, 'NSW'))).toBe('1 George St, sydney, 2000, NSW');
    // A suburb whose name is part of a longer word is still added.
    expect(addressOf(p('5 Bondiway Rd', 'Bondi', 2026, null))).toBe('5 Bondiway Rd, Bondi, 2026');
    expect(addressOf(p(null, 'Bondi', null, null))).toBe('Bondi');
    expect(addressOf(p(null, null, null, null))).toBe('');
    // An upload's place name that is the suburb again is not repeated; the postcode shows instead.
    expect(addressOf({ ...p('1 Main St', 'Newtown', 2042, 'NSW'), postcode_name: 'Newtown' })).toBe('1 Main St, Newtown, 2042, NSW');
    expect(addressOf({ ...p('1 Main St, Newtown', 'Newtown', 2042, 'NSW'), postcode_name: 'newtown' })).toBe(
      '1 Main St, Newtown, 2042, NSW',
    );
  });
});
