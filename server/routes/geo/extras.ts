import { IdParams } from '../../../shared/schemas/common';
import {
  AreaList,
  AssignSuburbsAnswer,
  AssignSuburbsBody,
  BulkUploadAnswer,
  BulkUploadBody,
  BulkUploadQuery,
  CountryCurrency,
  CountryCurrencyList,
  PincodeFilterQuery,
  PincodeList,
  SuburbFilterQuery,
  ZoneMatchList,
} from '../../../shared/schemas/geo';
import type { Db } from '../../db/client';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { gainedBySuburbs, placeWaiting } from '../../services/geo/waiting';
import { assignSuburbsToZone } from '../../services/geo/assign';
import {
  areasBySuburb,
  countryById,
  countryCurrencies,
  pincodesBySuburb,
  zonesByPincode,
  zonesBySuburb,
  type ZoneMatch,
} from '../../services/geo/lookup';
import { toArea, toCurrency, toPincode, toSuburb, toZone } from '../../services/geo/shape';
import { uploadPincodes } from '../../services/geo/upload/pincodes';
import { MAX_SHEET_BYTES, MAX_SHEET_ROWS } from '../../services/geo/upload/sheet';

const extra = (name: string) => ops('web/Common/Extras', name);
const tags = ['Geography'];
const zoneMatches = async (db: Db, found: ZoneMatch[]) => {
  const results = [];
  for (const m of found) results.push({ ...(await toZone(m.zone, db)), suburbs: m.suburbs });
  return { count: found.length, results };
};

export function geoExtraRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/country/get-currency/',
      catalogue: extra('Country Get Currency'),
      tags,
      access: 'geo.view',
      summary: 'Every live country with its ISO 4217 currency',
      response: CountryCurrencyList,
    },
    async ({ deps }) => {
      const rows = await countryCurrencies(deps.db);
      return { count: rows.length, results: rows.map(toCurrency) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/country/{id}/get-currency/',
      catalogue: extra('Country Get Currency'),
      tags,
      access: 'geo.view',
      summary: "One country's ISO 4217 currency",
      params: IdParams,
      response: CountryCurrency,
    },
    async ({ deps, params }) => toCurrency(await countryById(deps.db, params.id)),
  );

  defineRoute(
    app,
    {
      method: ['post', 'patch'],
      path: '/suburb/assign-zone/',
      catalogue: extra('Suburb Assign Multiple Suburbs to Zone'),
      tags,
      access: 'geo.manage',
      summary: 'Put many suburbs in one zone (all or nothing)',
      body: AssignSuburbsBody,
      response: AssignSuburbsAnswer,
      description: '`zone: null` takes them out of any zone. Unknown or archived suburb ids: 400 naming them, nothing changed.',
    },
    async ({ deps, body, user }) => {
      const rows = await assignSuburbsToZone(deps, body.zone, body.suburbs);
      // Their parcels still waiting for a zone are zoned and priced with them.
      await placeWaiting(deps, user.id, await gainedBySuburbs(deps, body.suburbs));
      const where = body.zone == null ? 'out of any zone' : `into zone ${body.zone}`;
      const results = [];
      for (const r of rows) results.push(await toSuburb(r, deps.db));
      return { success: true, message: `${rows.length} suburb(s) moved ${where}`, count: rows.length, results };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/zone/by-suburb/',
      catalogue: extra('Zone by Suburb Filter'),
      tags,
      access: 'geo.view',
      summary: 'Zones of the given suburbs (`?suburb=3,4`)',
      query: SuburbFilterQuery,
      response: ZoneMatchList,
      description: 'Each zone lists which of the given suburbs led to it; archived zones are left out. Unknown suburb ids: 400.',
    },
    async ({ deps, query }) => zoneMatches(deps.db, await zonesBySuburb(deps.db, query.suburb)),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/zone/by-pincode/',
      catalogue: extra('Zone by Pincode Filter'),
      tags,
      access: 'geo.view',
      summary: 'Zones a postcode falls in (`?pincode=2000`)',
      query: PincodeFilterQuery,
      response: ZoneMatchList,
      description:
        'Postcode -> suburbs (through pincode records and the postcode on suburbs) -> their zones. An unknown postcode gives an empty list.',
    },
    async ({ deps, query }) => zoneMatches(deps.db, await zonesByPincode(deps.db, query.pincode)),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/area/by-suburb/',
      catalogue: extra('Area by Suburb Filter'),
      tags,
      access: 'geo.view',
      summary: 'Live areas of the given suburbs (`?suburb=3,4`)',
      query: SuburbFilterQuery,
      response: AreaList,
    },
    async ({ deps, query }) => {
      const rows = await areasBySuburb(deps.db, query.suburb);
      const results = [];
      for (const r of rows) results.push(await toArea(r, deps.db));
      return { count: rows.length, results };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/pincode/by-suburb/',
      catalogue: extra('Pincode by Suburb Filter'),
      tags,
      access: 'geo.view',
      summary: 'Live pincodes of the given suburbs (`?suburb=3,4`)',
      query: SuburbFilterQuery,
      response: PincodeList,
    },
    async ({ deps, query }) => {
      const rows = await pincodesBySuburb(deps.db, query.suburb);
      const results = [];
      for (const r of rows) results.push(await toPincode(r, deps.db));
      return { count: rows.length, results };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/pincode/bulk-upload/',
      catalogue: extra('Pincode Bulk Upload'),
      tags,
      access: 'geo.manage',
      summary: 'Create pincodes from a CSV or .xlsx sheet',
      bodyKind: 'multipart',
      body: BulkUploadBody,
      query: BulkUploadQuery,
      response: BulkUploadAnswer,
      description:
        `multipart \`file\`: CSV (UTF-8; comma, semicolon or tab) or .xlsx, at most ${MAX_SHEET_BYTES / 1024 / 1024} MiB and ${MAX_SHEET_ROWS} rows, ` +
        'type checked by content. Columns: code, suburb (name or id), optional state (name, code or id) and zone (name, code or id; moves the suburb ' +
        'into that zone). Every row is reported as created, updated or rejected. All or nothing unless `?partial=true`: a rejected row makes the ' +
        'answer 400 with the report in `details` and nothing applied.',
      prepare: async ({ body, deps }) => deps.sheets.parse('geo-sheet', new Uint8Array(await body.file.arrayBuffer())),
    },
    async ({ deps, query, prepared, user }) => {
      const out = await uploadPincodes(deps, prepared, query.partial);
      const codes = out.report.flatMap((r) => (r.status !== 'rejected' && r.code != null ? [r.code] : []));
      await placeWaiting(deps, user.id, { postcodes: codes });
      const message = `${out.created} created, ${out.updated} updated, ${out.rejected} rejected`;
      return { success: true, message, ...out };
    },
  );
}
