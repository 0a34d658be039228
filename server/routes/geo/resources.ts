import { z } from 'zod';
import {
  Area,
  AreaCreate,
  AreaUpdate,
  City,
  CityCreate,
  CityUpdate,
  Country,
  CountryCreate,
  CountryUpdate,
  Pincode,
  PincodeCreate,
  PincodeUpdate,
  State,
  StateCreate,
  StateUpdate,
  Street,
  StreetCreate,
  StreetUpdate,
  Suburb,
  SuburbCreate,
  SuburbUpdate,
  Zone,
  ZoneCreate,
  ZoneUpdate,
} from '../../../shared/schemas/geo';
import { area, city, country, pincode, state, street, suburb, zone } from '../../db/schema/index';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineResource, type Op } from '../../resources/crud';
import {
  areaRule,
  cityRule,
  countryRule,
  followCityState,
  pincodeRule,
  renamer,
  stateRule,
  streetRule,
  suburbRule,
  suburbToRow,
  zoneRule,
} from '../../services/geo/rules';
import { toArea, toCity, toCountry, toPincode, toState, toStreet, toSuburb, toZone } from '../../services/geo/shape';
import { gainedByPincodes, gainedBySuburbs, placeWaiting } from '../../services/geo/waiting';

const VIEW = 'geo.view';
const MANAGE = 'geo.manage';

/** The eight operations every geography group of the catalogue names. */
function groupOps(group: string): Partial<Record<Op, string[]>> {
  const g = `web/Common/${group}`;
  return {
    list: ops(g, 'Get'),
    create: ops(g, 'Create'),
    retrieve: ops(g, 'Retrieve'),
    update: ops(g, 'Update'),
    delete: ops(g, 'Delete'),
    archiveList: ops(g, 'Archive/Archive List'),
    archive: ops(g, 'Archive/Archive'),
    restore: ops(g, 'Archive/Restore'),
  };
}

/** List filters arrive as query strings; naming them keeps them through validation and in the OpenAPI document. */
function filterQuery(...names: string[]) {
  return z.object(Object.fromEntries(names.map((n) => [n, z.string().trim().max(2000).optional()])));
}

export function geoResourceRoutes(app: App): void {
  defineResource(app, {
    path: 'country',
    table: country,
    label: 'Country',
    view: VIEW,
    manage: MANAGE,
    tags: ['Geography'],
    ops: groupOps('Country'),
    record: Country,
    create: CountryCreate,
    update: CountryUpdate,
    toApi: toCountry,
    validate: countryRule,
    list: {
      search: ['name', 'iso2', 'currency'],
      ordering: ['name', 'iso2', 'currency', 'created_at'],
      defaultOrdering: 'name',
      filters: { is_active: 'is_active', currency: 'currency', iso2: 'iso2' },
    },
    listQuery: filterQuery('is_active', 'currency', 'iso2'),
  });

  defineResource(app, {
    path: 'state',
    table: state,
    label: 'State',
    view: VIEW,
    manage: MANAGE,
    tags: ['Geography'],
    ops: groupOps('States'),
    record: State,
    create: StateCreate,
    update: StateUpdate,
    toApi: toState,
    validate: stateRule,
    toRow: renamer({ country: 'country_id' }),
    list: {
      search: ['name', 'code'],
      ordering: ['name', 'code', 'created_at'],
      defaultOrdering: 'name',
      filters: { country: 'country_id', is_active: 'is_active' },
    },
    listQuery: filterQuery('country', 'is_active'),
  });

  defineResource(app, {
    path: 'city',
    table: city,
    label: 'City',
    view: VIEW,
    manage: MANAGE,
    tags: ['Geography'],
    ops: groupOps('City'),
    record: City,
    create: CityCreate,
    update: CityUpdate,
    toApi: toCity,
    validate: cityRule,
    toRow: renamer({ state: 'state_id' }),
    afterWrite: (db, ids) => followCityState(db, ids),
    list: {
      search: ['name'],
      ordering: ['name', 'created_at'],
      defaultOrdering: 'name',
      filters: { state: 'state_id', is_active: 'is_active' },
    },
    listQuery: filterQuery('state', 'is_active'),
  });

  defineResource(app, {
    path: 'zone',
    table: zone,
    label: 'Zone',
    view: VIEW,
    manage: MANAGE,
    tags: ['Geography'],
    ops: groupOps('Zone'),
    record: Zone,
    create: ZoneCreate,
    update: ZoneUpdate,
    toApi: toZone,
    validate: zoneRule,
    toRow: renamer({ warehouse: 'warehouse_id' }),
    list: {
      search: ['name', 'code', 'description'],
      ordering: ['name', 'code', 'created_at'],
      defaultOrdering: 'name',
      filters: { warehouse: 'warehouse_id', is_active: 'is_active' },
    },
    listQuery: filterQuery('warehouse', 'is_active'),
  });

  defineResource(app, {
    path: 'suburb',
    table: suburb,
    label: 'Suburb',
    view: VIEW,
    manage: MANAGE,
    tags: ['Geography'],
    ops: groupOps('Suburb'),
    record: Suburb,
    create: SuburbCreate,
    update: SuburbUpdate,
    toApi: toSuburb,
    validate: suburbRule,
    toRow: suburbToRow,
    // Parcels waiting for this suburb (its name, its postcode, or a zone) are placed and priced in the same unit (issue 36).
    afterWrite: async (_db, ids, { deps, user }) => {
      await placeWaiting(deps, user.id, await gainedBySuburbs(deps, ids));
    },
    list: {
      search: ['name', 'postcode'],
      ordering: ['name', 'postcode', 'created_at'],
      defaultOrdering: 'name',
      filters: { state: 'state_id', city: 'city_id', zone: 'zone_id', postcode: 'postcode', is_active: 'is_active' },
    },
    listQuery: filterQuery('state', 'city', 'zone', 'postcode', 'is_active'),
  });

  defineResource(app, {
    path: 'area',
    table: area,
    label: 'Area',
    view: VIEW,
    manage: MANAGE,
    tags: ['Geography'],
    ops: groupOps('Area'),
    record: Area,
    create: AreaCreate,
    update: AreaUpdate,
    toApi: toArea,
    validate: areaRule,
    toRow: renamer({ suburb: 'suburb_id' }),
    list: {
      search: ['name'],
      ordering: ['name', 'created_at'],
      defaultOrdering: 'name',
      filters: { suburb: 'suburb_id', is_active: 'is_active' },
    },
    listQuery: filterQuery('suburb', 'is_active'),
  });

  defineResource(app, {
    path: 'street',
    table: street,
    label: 'Street',
    view: VIEW,
    manage: MANAGE,
    tags: ['Geography'],
    ops: groupOps('Street'),
    record: Street,
    create: StreetCreate,
    update: StreetUpdate,
    toApi: toStreet,
    validate: streetRule,
    toRow: renamer({ area: 'area_id' }),
    list: {
      search: ['name'],
      ordering: ['name', 'created_at'],
      defaultOrdering: 'name',
      filters: { area: 'area_id', is_active: 'is_active' },
    },
    listQuery: filterQuery('area', 'is_active'),
  });

  defineResource(app, {
    path: 'pincode',
    table: pincode,
    label: 'Pincode',
    view: VIEW,
    manage: MANAGE,
    tags: ['Geography'],
    ops: groupOps('Pincode'),
    record: Pincode,
    create: PincodeCreate,
    update: PincodeUpdate,
    toApi: toPincode,
    validate: pincodeRule,
    toRow: renamer({ suburb: 'suburb_id' }),
    afterWrite: async (_db, ids, { deps, user }) => {
      await placeWaiting(deps, user.id, await gainedByPincodes(deps, ids));
    },
    list: {
      search: ['code'],
      ordering: ['code', 'created_at'],
      defaultOrdering: 'code',
      filters: { suburb: 'suburb_id', code: 'code', is_active: 'is_active' },
    },
    listQuery: filterQuery('suburb', 'code', 'is_active'),
  });
}
