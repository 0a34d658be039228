import type { ViewPackage } from '../sync/index';

export function addressOf(p: ViewPackage): string {
  return [p.customer_address, p.suburb_name, p.postcode_name ?? (p.postcode != null ? String(p.postcode) : null), p.state_name]
    .filter((x): x is string => !!x && x.trim() !== '').join(', ');
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
    return lat != null && lng != null ? `geo:${where}?q=${encodeURIComponent(`${where}(${p.customer_name ?? p.hawb})`)}` : `geo:0,0?q=${encodeURIComponent(address)}`;
  }
  if (/iPhone|iPad|iPod/i.test(ua)) return `https://maps.apple.com/?daddr=${encodeURIComponent(where)}`;
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(where)}`;
}

export function telHref(phone: string | null): string | null {
  if (!phone) return null;
  const digits = phone.replace(/[^\d+]/g, '');
  return digits ? `tel:${digits}` : null;
}
