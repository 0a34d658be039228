import { useEffect, useState } from 'preact/hooks';
import type { Precision } from '../../../shared/geo/address';
import { api } from '../../api/client';
import { PATHS } from '../../api/paths';
import { Badge, type Tone } from '../../ui/Badge';

const TONE: Record<Precision, Tone> = { exact: 'ok', street: 'info', suburb: 'warn', postcode: 'bad', none: 'bad' };
const LABEL: Record<Precision, string> = {
  exact: 'Exact',
  street: 'Street',
  suburb: 'Suburb only',
  postcode: 'Postcode only',
  none: 'Not located',
};
const SOURCE: Record<string, string> = {
  caller: 'coordinates sent with the parcel',
  office: 'pin placed by the office',
  address_book: 'learned from earlier deliveries',
  geocoder: 'the geocoder',
  street: 'the street in master data',
  suburb: 'the suburb in master data',
  postcode: 'the postcode in master data',
  none: 'nothing known',
};
export const sourceText = (s: string) => SOURCE[s] ?? s;

/** How sure we are where a parcel is: green at the door, amber to the suburb, red worse. */
export function PrecisionBadge({ precision, pending }: { precision: Precision; pending?: boolean }) {
  return (
    <Badge tone={TONE[precision]}>
      {LABEL[precision]}
      {pending ? ' · locating…' : ''}
    </Badge>
  );
}

export interface PrecisionInfo {
  package: number;
  precision: Precision;
  source: string;
  pending: boolean;
}

/** Precision of the parcels on the current page, in one request; nothing (no badges) if it fails. */
export function usePrecisions(ids: number[]): Map<number, PrecisionInfo> {
  const [map, setMap] = useState(new Map<number, PrecisionInfo>());
  const key = ids.join(',');
  useEffect(() => {
    if (!key) return undefined;
    let live = true;
    api.get<{ results: PrecisionInfo[] }>(PATHS.packageLocations, { ids: key }).then(
      (r) => {
        if (live) setMap(new Map(r.results.map((p) => [p.package, p])));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [key]);
  return map;
}
