/** Issue 18 item 8: addresses shown in the admin screens never repeat the suburb. */
import { describe, expect, it } from 'vitest';
import { formatAddress, type AddressParts } from '../../shared/address';

const p = (customer_address: string | null, more: Partial<AddressParts> = {}): AddressParts => ({
  customer_address,
  suburb_name: 'Newtown',
  postcode_name: 'Newtown',
  postcode: 2042,
  state_name: 'NSW',
  ...more,
});

describe('formatAddress', () => {
  it('adds suburb, state and postcode to a bare street line', () => {
    expect(formatAddress(p('1 Main St'))).toBe('1 Main St, Newtown NSW 2042');
  });
  it('never repeats a suburb the street line already says (the demo data case)', () => {
    expect(formatAddress(p('1 Main St, Newtown'))).toBe('1 Main St, Newtown NSW 2042');
    expect(formatAddress(p('1 Main St, NEWTOWN'))).toBe('1 Main St, NEWTOWN NSW 2042');
    expect(formatAddress(p('1 Main St, Newtown NSW 2042'))).toBe('1 Main St, Newtown NSW 2042');
    expect(formatAddress(p('1 Main St Newtown NSW 2042'))).toBe('1 Main St Newtown NSW 2042');
    expect(formatAddress(p('1 Main St Newtown'))).toBe('1 Main St Newtown NSW 2042');
    expect(formatAddress(p('Unit 4, 1 Main St, Newtown,'))).toBe('Unit 4, 1 Main St, Newtown NSW 2042');
  });
  it('suburb and place name say the same thing once', () => {
    expect(formatAddress(p('1 Main St', { suburb_name: null }))).toBe('1 Main St, Newtown NSW 2042');
    expect(formatAddress(p('1 Main St', { suburb_name: 'Newtown', postcode_name: 'Newtown ' }))).toBe('1 Main St, Newtown NSW 2042');
  });
  it('a street named like the suburb does not hide the suburb', () => {
    expect(formatAddress(p('12 Newtown Rd'))).toBe('12 Newtown Rd, Newtown NSW 2042');
    expect(formatAddress(p('12 Newtown Rd, Sydney', { suburb_name: 'Sydney', postcode: 2000 }))).toBe('12 Newtown Rd, Sydney NSW 2000');
    // A suburb inside a longer word is not a mention of it.
    expect(formatAddress(p('5 Bondiway Rd', { suburb_name: 'Bondi', postcode: 2026 }))).toBe('5 Bondiway Rd, Bondi NSW 2026');
  });
  it('abbreviations and missing parts', () => {
    expect(formatAddress(p('3 Hill Rd, Mt Druitt', { suburb_name: 'Mount Druitt', postcode: 2770 }))).toBe('3 Hill Rd, Mt Druitt NSW 2770');
    expect(formatAddress(p(null))).toBe('Newtown NSW 2042');
    expect(formatAddress(p('', { suburb_name: null, postcode_name: null, state_name: null, postcode: null }))).toBe('');
    expect(formatAddress(p('1 Main St', { suburb_name: null, postcode_name: null, state_name: null }))).toBe('1 Main St, 2042');
  });
});
