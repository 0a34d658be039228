import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { activeFlag, archivable, id, str, timestamps } from './columns';
import { pkg } from './packages';
import { company, user } from './people';
import { warehouse } from './places';

/** A van, bike or truck; capacities are limits on the sum of its parcels (null = no limit). */
export const vehicle = sqliteTable('vehicle', {
  id: id(),
  name: text('name').notNull(),
  /** van | truck | car | bike | other */
  type: text('type').notNull().default('van'),
  registration: str('registration'),
  capacity_kg: real('capacity_kg'),
  capacity_m3: real('capacity_m3'),
  capacity_parcels: integer('capacity_parcels'),
  /** JSON array of what the van can do: refrigerated, tail-lift... (issue 32). */
  skills: text('skills').notNull().default('[]'),
  /** What this van costs, overriding the office's plan settings; null = the settings' rate. */
  cost_per_km: real('cost_per_km'),
  cost_per_hour: real('cost_per_hour'),
  cost_fixed: real('cost_fixed'),
  ...activeFlag(),
  ...archivable(),
  ...timestamps(),
});

/**
 * A driver working a day: from `start_time` to `end_time` (`HH:MM`, UTC like the rest of the
 * server's days), leaving from one depot and returning to another (or the same).
 */
export const driverShift = sqliteTable(
  'driver_shift',
  {
    id: id(),
    driver_id: integer('driver_id')
      .notNull()
      .references(() => user.id),
    date: text('date').notNull(),
    start_time: text('start_time').notNull(),
    end_time: text('end_time').notNull(),
    start_warehouse_id: integer('start_warehouse_id').references(() => warehouse.id),
    end_warehouse_id: integer('end_warehouse_id').references(() => warehouse.id),
    vehicle_id: integer('vehicle_id').references(() => vehicle.id),
    /** This shift's break (minutes long, starting between after_min and after_max minutes in); null = the plan settings'. */
    break_minutes: integer('break_minutes'),
    break_after_min: integer('break_after_min'),
    break_after_max: integer('break_after_max'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('driver_shift_driver_date_uq').on(t.driver_id, t.date), index('driver_shift_date_idx').on(t.date)],
);

/**
 * Where a depot is on the map. Warehouses carry an address only; vans leave from and return to
 * these coordinates when a plan starts at the depot.
 */
export const depotPosition = sqliteTable('depot_position', {
  warehouse_id: integer('warehouse_id')
    .primaryKey()
    .references(() => warehouse.id),
  latitude: real('latitude').notNull(),
  longitude: real('longitude').notNull(),
  updated_at: integer('updated_at').notNull(),
});

/**
 * A parcel's delivery window (`HH:MM` on the day it is delivered) and its time at the door. Beside
 * the package row because the spec's Package shape (2.1) is exact.
 */
export const packageWindow = sqliteTable('package_window', {
  package_id: integer('package_id')
    .primaryKey()
    .references(() => pkg.id),
  window_start: text('window_start'),
  window_end: text('window_end'),
  /** Seconds at the door; null = the company's default. */
  service_s: integer('service_s'),
  /** JSON array of skills the stop needs (two-person, refrigerated...); null = none (issue 32). */
  skills: text('skills'),
  updated_at: integer('updated_at').notNull(),
});

/** A company's default time at the door, in seconds (no row = the courier's default). */
export const companyServiceTime = sqliteTable('company_service_time', {
  company_id: integer('company_id')
    .primaryKey()
    .references(() => company.id),
  service_s: integer('service_s').notNull(),
  updated_at: integer('updated_at').notNull(),
});

/**
 * One planning run of the dispatch board: the request, its progress while the optimiser works in a
 * worker thread, and the proposal it made.
 */
export const dispatchPlan = sqliteTable('dispatch_plan', {
  id: id(),
  date: text('date').notNull(),
  /** queued | running | done | failed */
  status: text('status').notNull(),
  request: text('request').notNull(),
  proposal: text('proposal'),
  message: text('message'),
  time_limit_ms: integer('time_limit_ms').notNull(),
  started_at: integer('started_at'),
  finished_at: integer('finished_at'),
  committed_at: integer('committed_at'),
  created_by: integer('created_by')
    .notNull()
    .references(() => user.id),
  created_at: integer('created_at').notNull(),
});

/**
 * The arrival time of each stop of a planned or running route. `planned_at` is the time promised
 * when the route was planned; `eta_at` moves as the driver works (stops done or skipped, positions).
 * Recipients' messages read these through `etaFor()` (server/services/dispatch/eta.ts).
 */
export const stopEta = sqliteTable(
  'stop_eta',
  {
    package_id: integer('package_id')
      .primaryKey()
      .references(() => pkg.id),
    /** No foreign key: a planned route may be deleted; `etaFor` checks the parcel is still on it. */
    route_id: integer('route_id').notNull(),
    eta_at: integer('eta_at').notNull(),
    planned_at: integer('planned_at').notNull(),
    /** Minutes waited for the window to open. */
    wait_s: integer('wait_s').notNull().default(0),
    /** Arrives after the window closes. */
    late: integer('late', { mode: 'boolean' }).notNull().default(false),
    computed_at: integer('computed_at').notNull(),
  },
  (t) => [index('stop_eta_route_idx').on(t.route_id)],
);

/**
 * The pickup stop of a parcel a route collects and then delivers (issue 32, pickup-and-delivery
 * pairs): its delivery stop is the parcel's own `route_id` and `sequence_no`; this row is the one
 * extra place in the route's order (`sequence_no`, counted with the parcels'), where the van
 * collects it from its pickup point. One per parcel: a parcel is collected once.
 */
export const routePickup = sqliteTable(
  'route_pickup',
  {
    package_id: integer('package_id')
      .primaryKey()
      .references(() => pkg.id),
    route_id: integer('route_id').notNull(),
    sequence_no: integer('sequence_no').notNull(),
    created_at: integer('created_at').notNull(),
    /**
     * When the van is expected at the pickup point (epoch ms), walked with the route's delivery ETAs
     * (`refreshRouteEtas`); null once collected or before the route's times are first computed.
     */
    eta_at: integer('eta_at'),
  },
  (t) => [index('route_pickup_route_idx').on(t.route_id)],
);

/**
 * The road legs a committed plan used (issue 31): for each stop of a route, the leg that reaches it
 * from the stop before (or the route's start when `from_package_id` is null), in seconds and metres
 * as the road engine gave them (`source` `osrm:driving`) or the great-circle estimate (`estimate`).
 * Every ETA is walked over these; `planned_at` is the arrival promised at commit, kept after the stop
 * is worked so the planned-against-actual report can compare it with the real arrival.
 */
export const routeLeg = sqliteTable(
  'route_leg',
  {
    id: id(),
    route_id: integer('route_id').notNull(),
    package_id: integer('package_id')
      .notNull()
      .references(() => pkg.id),
    from_package_id: integer('from_package_id'),
    seq: integer('seq').notNull(),
    duration_s: real('duration_s').notNull(),
    distance_m: real('distance_m'),
    source: text('source').notNull(),
    planned_at: integer('planned_at').notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('route_leg_route_package_uq').on(t.route_id, t.package_id), index('route_leg_package_idx').on(t.package_id)],
);

/** What a driver can do, whatever van they drive (ID-check trained, dangerous goods...): a JSON array. */
export const driverSkill = sqliteTable('driver_skill', {
  driver_id: integer('driver_id')
    .primaryKey()
    .references(() => user.id),
  skills: text('skills').notNull(),
  updated_at: integer('updated_at').notNull(),
});

/**
 * The office's plan settings (issue 32): costs, the default break, route limits and balance, as
 * JSON checked by `PlanSettings`. One row (id = 1); absent = distance only, as before.
 */
export const dispatchSetting = sqliteTable('dispatch_setting', {
  id: integer('id').primaryKey(),
  rules: text('rules').notNull(),
  updated_at: integer('updated_at').notNull(),
  updated_by: integer('updated_by').references(() => user.id),
});
