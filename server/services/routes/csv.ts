import { stringify } from 'csv-stringify/sync';
import { csvSafe } from '../../../shared/csvSafe';
import type { Db } from '../../db/client';
import { routePackages, routeRecords, type RouteRow } from './shape';

export const ROUTE_CSV_COLUMNS = [
  'route_id',
  'route_name',
  'date',
  'kind',
  'route_status',
  'driver',
  'sequence_no',
  'package_id',
  'hawb',
  'package_status',
  'customer_name',
  'customer_address',
  'customer_phone',
  'postcode',
  'suburb_name',
  'latitude',
  'longitude',
  'company_name',
] as const;

/**
 * One line per parcel of each route, in sequence order (a route with no parcel still has its own
 * line). Every cell goes through csvSafe: names and addresses are typed by customers.
 */
export async function routesCsv(db: Db, rows: RouteRow[]): Promise<string> {
  const lines: unknown[][] = [];
  for (const route of await routeRecords(db, rows)) {
    const head = [route.id, route.name, route.date, route.kind, route.status, route.driver_name];
    const parcels = await routePackages(db, route.id);
    if (!parcels.length) lines.push([...head, ...new Array<null>(ROUTE_CSV_COLUMNS.length - head.length).fill(null)]);
    for (const p of parcels) {
      lines.push([
        ...head,
        p.sequence_no,
        p.id,
        p.hawb,
        p.status,
        p.customer_name,
        p.customer_address,
        p.customer_phone,
        p.postcode,
        p.suburb_name,
        p.latitude,
        p.longitude,
        p.company_name,
      ]);
    }
  }
  // A BOM so spreadsheet programs read UTF-8 names correctly.
  return `\uFEFF${stringify([[...ROUTE_CSV_COLUMNS], ...lines.map((l) => l.map(csvSafe))])}`;
}
