import {
  PublicHoliday,
  PublicHolidayCreate,
  PublicHolidayUpdate,
  StandingDelivery,
  StandingDeliveryCreate,
  StandingDeliveryUpdate,
} from '../../shared/schemas/standing';
import { publicHoliday, standingDelivery } from '../db/schema/index';
import { checkStandingCompany, standingScope } from '../services/standing/scope';
import { badRequest } from '../errors';
import type { App } from '../http/env';
import { defineResource, type Row } from '../resources/crud';

const tags = ['Standing deliveries'];
const all = { list: [], create: [], retrieve: [], update: [], delete: [], archiveList: [], archive: [], restore: [], statusChange: [] };

/**
 * Standing deliveries and the public holidays they skip (issue 34): declared with the generic CRUD
 * helper; pause and resume are its status change (`is_active`). The background job is
 * services/standing/run.ts.
 */
export function standingRoutes(app: App): void {
  defineResource(app, {
    path: 'standing-delivery',
    table: standingDelivery,
    label: 'Standing delivery',
    view: 'package.view',
    manage: 'package.manage',
    tags,
    ops: all,
    record: StandingDelivery,
    create: StandingDeliveryCreate,
    update: StandingDeliveryUpdate,
    toApi: (r) => ({
      id: r.id,
      name: r.name,
      company: r.company_id,
      weekdays: r.weekdays,
      at_time: r.at_time,
      starts_on: r.starts_on ?? null,
      ends_on: r.ends_on ?? null,
      shipper_name: r.shipper_name,
      shipper_address: r.shipper_address,
      customer_name: r.customer_name,
      customer_address: r.customer_address,
      customer_phone: r.customer_phone,
      postcode: r.postcode ?? null,
      suburb: r.suburb_id ?? null,
      description_of_goods: r.description_of_goods,
      weight: r.weight ?? null,
      is_active: r.is_active,
    }),
    toRow: (input, { user }) => {
      const { company: companyId, suburb, ...rest } = input;
      const out: Row = { ...rest };
      if (companyId !== undefined) out.company_id = companyId;
      if (suburb !== undefined) out.suburb_id = suburb;
      if (user.role === 'company') out.company_id = user.companyId;
      return out;
    },
    validate: async (values, { deps, existing, user }) => {
      if (existing == null) values.created_by = user.id;
      const companyId = (values.company_id ?? existing?.company_id) as number | undefined;
      if (companyId != null && values.company_id !== undefined) {
        await checkStandingCompany(deps.db, companyId);
      }
      const starts = (values.starts_on ?? existing?.starts_on) as string | null | undefined;
      const ends = (values.ends_on ?? existing?.ends_on) as string | null | undefined;
      if (starts && ends && ends < starts)
        throw badRequest('ends_on is before starts_on', [{ path: 'ends_on', message: 'before starts_on' }]);
    },
    scope: standingScope,
    list: { search: ['name', 'customer_name', 'customer_address'], ordering: ['name', 'at_time', 'created_at'] },
  });

  defineResource(app, {
    path: 'public-holiday',
    table: publicHoliday,
    label: 'Public holiday',
    view: 'package.view',
    manage: 'company.manage',
    tags,
    ops: all,
    record: PublicHoliday,
    create: PublicHolidayCreate,
    update: PublicHolidayUpdate,
    toApi: (r) => ({ id: r.id, day: r.day, name: r.name, is_active: r.is_active }),
    list: { search: ['name', 'day'], ordering: ['day', 'name'] },
  });
}
