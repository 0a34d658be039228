import type { ViewPackage } from '../sync/index';

/**
 * The street address, then the suburb, postcode and state only where the typed address does not
 * already say them ("1 George St, Sydney NSW 2000" is not followed by ", Sydney, 2000, NSW").
 */
export function addressOf(p: Pick<ViewPackage, 'customer_address' | 'suburb_name' | 'postcode_name' | 'postcode' | 'state_name'>): string {
  const street = p.customer_address?.trim() ?? '';
  const said = street.toLowerCase();
  const has = (part: string) =>
    new RegExp(`(^|[^a-z0-9])${part.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z0-9])`).test(said);
  // The place name a parcel was sent with is usually its suburb again ("Newtown, Newtown"): said once.
  const placeName =
    p.postcode_name && p.suburb_name && p.postcode_name.trim().toLowerCase() === p.suburb_name.trim().toLowerCase()
      ? null
      : p.postcode_name;
  const rest = [p.suburb_name, placeName ?? (p.postcode != null ? String(p.postcode) : null), p.state_name].filter(
    (x): x is string => !!x && x.trim() !== '' && !has(x.trim()),
  );
  return [street, ...rest].filter((x) => x !== '').join(', ');
}

/**
 * A link that opens the phone's own maps app: `geo:` on Android (any installed navigator answers it),
 * Apple Maps on iPhones, Google Maps on the web elsewhere. No map code is loaded in the app for this.
 */
export function mapsHref(p: ViewPackage, ua = typeof navigator !== 'undefined' ? navigator.userAgent : ''): string | null {
  const lat = p.latitude ?? p.coordinates?.latitude ?? null;
  const lng = p.longitude ?? p.coordinates?.longitude ?? null;
  const address = addressOf(p);
  if (lat == null && !address) return null;
  const where = lat != null && lng != null ? `${lat},${lng}` : address;
  if (/Android/i.test(ua)) {
    return lat != null && lng != null
      ? `geo:${where}?q=${encodeURIComponent(`${where}(${p.customer_name ?? p.hawb})`)}`
      : `geo:0,0?q=${encodeURIComponent(address)}`;
  }
  if (/iPhone|iPad|iPod/i.test(ua)) return `https://maps.apple.com/?daddr=${encodeURIComponent(where)}`;
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(where)}`;
}

export function telHref(phone: string | null): string | null {
  if (!phone) return null;
  const digits = phone.replace(/[^\d+]/g, '');
  return digits ? `tel:${digits}` : null;
}
