import { integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { activeFlag, archivable, id, str, timestamps } from './columns';
import { company } from './people';

export const warehouse = sqliteTable('warehouse', {
  id: id(),
  name: str('name'),
  street_address: text('street_address').notNull(),
  additional_details: str('additional_details'),
  suburb: str('suburb'),
  state: str('state'),
  postcode: str('postcode'),
  ...activeFlag(),
  ...archivable(),
  ...timestamps(),
});

export const pickupPoint = sqliteTable('pickup_point', {
  id: id(),
  person_name: text('person_name').notNull(),
  email: str('email'),
  phone: str('phone'),
  address: text('address').notNull(),
  additional_detail: str('additional_detail'),
  suburb: str('suburb'),
  state: str('state'),
  pincode: str('pincode'),
  company_id: integer('company_id').references(() => company.id),
  latitude: real('latitude'),
  longitude: real('longitude'),
  ...activeFlag(),
  ...archivable(),
  ...timestamps(),
});

export const packageType = sqliteTable('package_type', {
  id: id(),
  package_type: text('package_type').notNull(),
  ...activeFlag(),
  ...archivable(),
  ...timestamps(),
});

export const failedDeliveryStatus = sqliteTable('failed_delivery_status', {
  id: id(),
  name: text('name').notNull(),
  ...activeFlag(),
  ...archivable(),
  ...timestamps(),
});
