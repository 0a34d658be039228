import { IdParams } from '../../shared/schemas/common';
import {
  GeocodeProgressAnswer,
  PackageLocation,
  PinAnswer,
  PinBody,
  PrecisionsAnswer,
  PrecisionsQuery,
  ReviewAnswer,
  ReviewQuery,
} from '../../shared/schemas/location';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { pageLinks } from '../resources/list';
import { pinAddress } from '../services/geo/addressBook';
import { geocodeProgress } from '../services/geo/geocodeJobs';
import { packageLocationOf, precisionsOf, reviewList } from '../services/geo/packageLocations';
import { livePackage } from '../services/history/live';

const tags = ['Package location'];
const OFFICE = { roles: ['super_admin', 'admin', 'supervisor'] as const };

/** Where parcels are and how sure we are (issue 16); beside the Package, whose spec shape is exact. */
export function locationRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/location-review/',
      tags,
      access: 'package.view',
      query: ReviewQuery,
      response: ReviewAnswer,
      catalogue: [],
      summary: 'Open parcels located only to their suburb or worse, for the office to check',
      description:
        '`precision` is the best level listed (default `suburb`: suburb, postcode and none). Parcels flagged for review (`review`: a PO box, ' +
        'a place name its postcode does not cover) are listed at any precision. Companies see their own parcels.',
    },
    async ({ deps, user, query, c }) => {
      const { count, results } = await reviewList(deps.db, user, query.precision, query.page, query.page_size);
      return { count, ...pageLinks(c.req.url, query.page, query.page_size, count), results };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/locations/',
      tags,
      access: 'package.view',
      query: PrecisionsQuery,
      response: PrecisionsAnswer,
      catalogue: [],
      summary: 'Location precision of several parcels (list badges)',
      description: '`ids` comma-separated, at most 500; parcels you cannot see are left out.',
    },
    async ({ deps, user, query }) => ({ results: await precisionsOf(deps.db, user, query.ids.split(',').map(Number)) }),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/{id}/location/',
      tags,
      access: 'package.view',
      params: IdParams,
      response: PackageLocation,
      catalogue: [],
      summary: "A parcel's position, its precision (exact, street, suburb, postcode, none) and where it came from",
      description:
        "Staff see the shared address book's entry too. Anyone else sees only what concerns their own parcel: `address_book` is null, and a point " +
        'the shared book gave the parcel (deliveries to the address, an office pin) is shown as master data places the address.',
    },
    async ({ deps, user, params }) => {
      await livePackage(deps.db, user, params.id);
      return packageLocationOf(deps.db, params.id, user);
    },
  );

  defineRoute(
    app,
    {
      method: ['put', 'patch'],
      path: '/package/{id}/location/',
      tags,
      access: OFFICE,
      params: IdParams,
      body: PinBody,
      response: PinAnswer,
      catalogue: [],
      summary: 'The office places the pin of a parcel (dragged on its map)',
      description:
        'The address book takes this position for the address and wins over what deliveries taught; open parcels to the same ' +
        'address (not placed by their sender) move with it. Zone and price are unchanged: they follow the suburb.',
    },
    async ({ deps, user, params, body }) => {
      const row = await livePackage(deps.db, user, params.id);
      const moved = await pinAddress(deps.db, deps.clock.now(), row, body.latitude, body.longitude, { userId: user.id });
      return { success: true, message: `${moved} parcel(s) placed`, moved, location: await packageLocationOf(deps.db, row.id, user) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/geocode-job/{id}/',
      tags,
      access: 'package.view',
      params: IdParams,
      response: GeocodeProgressAnswer,
      catalogue: [],
      summary: "Progress of an upload's background geocoding",
      description: 'The upload answers `geocode_job`; companies see only their own uploads.',
    },
    ({ deps, user, params }) => geocodeProgress(deps.db, user, params.id),
  );
}
