import { localClock } from '../../shared/time/zone';

/**
 * Times on the tracking page read as the parcel's depot's wall clock (`RecipientView.time_zone`, issue 31):
 * the same "13:10" the recipient's SMS or e-mail gave and the driver's phone shows, whatever zone or
 * 12-hour habit the browser opening the link has (a shipper in Perth, a phone left on UTC).
 */
export const clockIn = (iso: string, zone: string): string => localClock(Date.parse(iso), zone);

/** "Tue 1 Dec, 13:10": the day in the depot's zone, then its wall clock. */
export function whenIn(iso: string, zone: string): string {
  const day = new Date(iso).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', timeZone: zone });
  return `${day}, ${clockIn(iso, zone)}`;
}
