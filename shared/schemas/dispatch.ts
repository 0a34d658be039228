import { z } from 'zod';
import { idParam, latitude, longitude, requiredText, text } from './common';

/** `HH:MM`, 00:00..23:59 (UTC, like the server's days). */
export const hhmm = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time as HH:MM (00:00 to 23:59)');
const day = z.iso.date();
const positive = z.number().positive().max(1_000_000);

export const VEHICLE_TYPES = ['van', 'truck', 'car', 'bike', 'other'] as const;

/** Skills a van, a driver or a stop names: refrigerated, tail-lift, two-person... (lower case, trimmed). */
const skillList = z.array(z.string().trim().toLowerCase().min(1).max(40)).max(16);
const rate = z.number().min(0).max(1_000_000);

export const VehicleCreate = z.object({
  name: requiredText(100),
  type: z.enum(VEHICLE_TYPES).default('van'),
  registration: text(32).default(''),
  /** Limits on the sum of the parcels on board; null = no limit. */
  capacity_kg: positive.nullable().optional(),
  capacity_m3: positive.nullable().optional(),
  capacity_parcels: z.number().int().positive().max(100_000).nullable().optional(),
  skills: skillList.default([]),
  /** This van's own rates (per km, per hour, per day used); null = the plan settings' rates. */
  cost_per_km: rate.nullable().optional(),
  cost_per_hour: rate.nullable().optional(),
  cost_fixed: rate.nullable().optional(),
  is_active: z.boolean().default(true),
});
export const Vehicle = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(VEHICLE_TYPES),
  registration: z.string(),
  capacity_kg: z.number().nullable(),
  capacity_m3: z.number().nullable(),
  capacity_parcels: z.number().int().nullable(),
  skills: z.array(z.string()),
  cost_per_km: z.number().nullable(),
  cost_per_hour: z.number().nullable(),
  cost_fixed: z.number().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Vehicle = z.infer<typeof Vehicle>;

export const ShiftCreate = z.object({
  driver: idParam,
  date: day,
  start_time: hhmm,
  end_time: hhmm,
  start_warehouse: idParam.nullable().optional(),
  end_warehouse: idParam.nullable().optional(),
  vehicle: idParam.nullable().optional(),
  /** This shift's break: minutes long, starting between after_min and after_max minutes in; null = the plan settings'. */
  break_minutes: z.number().int().min(1).max(240).nullable().optional(),
  break_after_min: z.number().int().min(0).max(1440).nullable().optional(),
  break_after_max: z.number().int().min(0).max(1440).nullable().optional(),
});
export const Shift = z.object({
  id: z.number().int(),
  driver: z.number().int(),
  driver_name: z.string(),
  date: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  start_warehouse: z.number().int().nullable(),
  end_warehouse: z.number().int().nullable(),
  vehicle: z.number().int().nullable(),
  vehicle_name: z.string().nullable(),
  break_minutes: z.number().int().nullable(),
  break_after_min: z.number().int().nullable(),
  break_after_max: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Shift = z.infer<typeof Shift>;

export const DepotPositionBody = z.object({ latitude, longitude });
export const DepotPosition = z.object({
  warehouse: z.number().int(),
  name: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type DepotPosition = z.infer<typeof DepotPosition>;

/** A parcel's window and time at the door; null clears. */
export const PackageWindowBody = z.object({
  window_start: hhmm.nullable().optional(),
  window_end: hhmm.nullable().optional(),
  service_s: z
    .number()
    .int()
    .min(0)
    .max(4 * 3600)
    .nullable()
    .optional(),
  /** Skills the stop needs (two-person, refrigerated...); null or [] = none. */
  skills: skillList.nullable().optional(),
});
export const PackageWindow = z.object({
  package: z.number().int(),
  window_start: z.string().nullable(),
  window_end: z.string().nullable(),
  /** Seconds at the door in effect (the parcel's own, else its company's default, else the courier's). */
  service_s: z.number().int(),
  service_source: z.enum(['package', 'company', 'default']),
  skills: z.array(z.string()),
});
export type PackageWindow = z.infer<typeof PackageWindow>;
export const CompanyServiceTimeBody = z.object({
  service_s: z
    .number()
    .int()
    .min(0)
    .max(4 * 3600),
});
export const CompanyServiceTime = z.object({ company: z.number().int(), service_s: z.number().int(), is_default: z.boolean() });

/** A stop pinned to a driver: re-planning keeps it on that driver's route. */
export const PlanLock = z.object({ package: idParam, driver: idParam });
/** A whole route kept as it is, order included: its driver and parcels sit out the re-plan. */
export const PlanFixedRoute = z.object({ driver: idParam, packages: z.array(idParam).max(2000) });

/**
 * What the plan costs and must respect (issue 32), every part optional: without `costs` the plan
 * minimises distance as before. Rates are the office's; `unserved_penalty` lets the plan leave a
 * parcel out when serving it costs more (absent: every parcel that fits is served first).
 */
export const PlanRules = z.object({
  costs: z
    .object({
      per_hour: z.number().min(0).max(10_000).default(0),
      per_km: z.number().min(0).max(10_000).default(0),
      per_vehicle: z.number().min(0).max(1_000_000).default(0),
      unserved_penalty: z.number().min(0).max(1_000_000).optional(),
    })
    .optional(),
  /** One break per shift: `minutes` long, starting between `after_min` and `after_max` minutes into the shift. */
  break: z
    .object({
      minutes: z.number().int().min(1).max(240),
      after_min: z.number().int().min(0).max(1440),
      after_max: z.number().int().min(0).max(1440),
    })
    .refine((b) => b.after_min <= b.after_max, { message: 'after_min must not exceed after_max' })
    .optional(),
  max_route_minutes: z.number().int().min(1).max(1440).optional(),
  max_stops: z.number().int().min(1).max(2000).optional(),
  /** Share work out: `weight` 0-1 trades distance for even durations (or stop counts). */
  balance: z.object({ by: z.enum(['duration', 'stops']), weight: z.number().min(0).max(1) }).optional(),
  /** Skills of drivers (with their vans) and skills parcels need: refrigerated, tail-lift, two-person... */
  driver_skills: z
    .array(z.object({ driver: idParam, skills: skillList }))
    .max(200)
    .default([]),
  parcel_skills: z
    .array(z.object({ package: idParam, skills: skillList }))
    .max(5000)
    .default([]),
});
export type PlanRules = z.infer<typeof PlanRules>;

/**
 * The office's stored plan settings: the rules every plan starts from (a plan request's own
 * fields win). Skills are stored on vans, drivers and parcels instead.
 */
export const PlanSettings = PlanRules.omit({ driver_skills: true, parcel_skills: true });
export type PlanSettings = z.infer<typeof PlanSettings>;
export const DriverSkillsBody = z.object({ skills: skillList });
export const DriverSkills = z.object({ driver: z.number().int(), driver_name: z.string(), skills: z.array(z.string()) });
export type DriverSkills = z.infer<typeof DriverSkills>;

export const PlanRequest = z.object({
  date: day,
  /** Depots whose zones' parcels are planned; with `zones`, the union. Both empty = every zone. */
  warehouses: z.array(idParam).max(200).default([]),
  zones: z.array(idParam).max(2000).default([]),
  drivers: z.array(idParam).min(1).max(200),
  locks: z.array(PlanLock).max(5000).default([]),
  fixed_routes: z.array(PlanFixedRoute).max(200).default([]),
  /** Optimiser budget in the worker thread. */
  time_limit_ms: z.number().int().min(100).max(60_000).default(3000),
  /**
   * Parcels with no delivery date join the plan too (issue 32). Off by default: a plan for a day
   * takes the parcels due that day (and those overdue, still not delivered).
   */
  include_undated: z.boolean().default(false),
  /**
   * Pickups join the plan as pairs (issue 32): each parcel waiting for collection (`pickup_requested`)
   * due that day is collected at its pickup point and delivered to its recipient by the same van,
   * pickup first. Off by default: a plan takes only parcels already in the courier's hands.
   */
  include_pickups: z.boolean().default(false),
  ...PlanRules.shape,
});
export type PlanRequest = z.infer<typeof PlanRequest>;

const point = z.object({ latitude: z.number(), longitude: z.number() });
const load = z.object({ kg: z.number(), m3: z.number(), parcels: z.number().int() });
const capacity = z.object({ kg: z.number().nullable(), m3: z.number().nullable(), parcels: z.number().int().nullable() });

export const PlanStop = z.object({
  package: z.number().int(),
  hawb: z.string(),
  customer_name: z.string().nullable(),
  address: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  window_start: z.string().nullable(),
  window_end: z.string().nullable(),
  service_s: z.number().int(),
  /** IANA zone the window is local to (the parcel's depot's; issue 31). */
  time_zone: z.string(),
  kg: z.number(),
  m3: z.number(),
  /** ISO time the van arrives. */
  eta: z.string(),
  late: z.boolean(),
  locked: z.boolean(),
  /** Seconds the van waits there for the window (issue 32); absent when not planned by the optimiser. */
  wait_s: z.number().optional(),
  /**
   * Present on the pickup half of a pair (issue 32): the van collects the parcel here (its pickup
   * point), and delivers it at a later stop of the same route. `address` and the coordinates are the pickup point's.
   */
  pickup: z.literal(true).optional(),
});
export type PlanStop = z.infer<typeof PlanStop>;

export const PlanRoute = z.object({
  driver: z.number().int(),
  driver_name: z.string(),
  vehicle: z.number().int().nullable(),
  vehicle_name: z.string().nullable(),
  shift_start: z.string(),
  shift_end: z.string(),
  /** IANA zone the shift is local to (its start depot's; issue 31). */
  time_zone: z.string(),
  /** ISO time the van leaves: the shift start, or the time of planning for a day under way. */
  depart: z.string(),
  start: point.nullable(),
  end: point.nullable(),
  capacity,
  load,
  /** From `depart` to back at the end depot: the drive back included (issue 32). */
  distance_m: z.number(),
  duration_s: z.number(),
  /** ISO time the van is back at its end depot (done with its last stop, for an open route); absent in plans stored before issue 32. */
  back: z.string().optional(),
  /** Kept exactly as given (a fixed route). */
  fixed: z.boolean(),
  stops: z.array(PlanStop),
  /**
   * What the route costs at the rates it was planned with (the van's fixed cost, per hour of
   * `duration_s`, per km of `distance_m`), in the office's currency; absent when the plan had no rates.
   */
  cost: z.number().optional(),
  /** Driver breaks the optimiser placed (issue 32): taken on arrival at `before` (index in `stops`; = stops.length: before the return). */
  breaks: z.array(z.object({ before: z.number().int(), start: z.string(), end: z.string() })).optional(),
});
export type PlanRoute = z.infer<typeof PlanRoute>;

export const UNASSIGNED_REASONS = ['no_coordinates', 'capacity', 'window', 'shift', 'fleet_full', 'skill'] as const;
export type UnassignedReason = (typeof UNASSIGNED_REASONS)[number];
export const PlanUnassigned = z.object({
  package: z.number().int(),
  hawb: z.string(),
  customer_name: z.string().nullable(),
  address: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  reason: z.enum(UNASSIGNED_REASONS),
  message: z.string(),
});
export type PlanUnassigned = z.infer<typeof PlanUnassigned>;

export const Proposal = z.object({
  date: z.string(),
  routes: z.array(PlanRoute),
  unassigned: z.array(PlanUnassigned),
  parcels: z.number().int(),
  distance_m: z.number(),
  /** The routes' costs summed (fixed routes, kept as given, have none); absent when the plan had no rates. */
  cost: z.number().optional(),
  solve_ms: z.number(),
});
export type Proposal = z.infer<typeof Proposal>;

export const PLAN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const PlanJob = z.object({
  id: z.number().int(),
  date: z.string(),
  status: z.enum(PLAN_STATUSES),
  /** 0..1 while planning; 1 when done. */
  progress: z.number(),
  message: z.string().nullable(),
  proposal: Proposal.nullable(),
  committed_at: z.string().nullable(),
  created_at: z.string(),
});
export type PlanJob = z.infer<typeof PlanJob>;

export const CommitRoute = z.object({
  driver: idParam,
  /**
   * The stops in order, by parcel. A parcel named twice is a pickup-and-delivery pair (issue 32):
   * collected at its first place in the list, delivered at its second.
   */
  packages: z.array(idParam).min(1).max(2000),
  name: requiredText(200).optional(),
});
export const CommitBody = z.object({
  routes: z.array(CommitRoute).min(1).max(200),
});
export type CommitBody = z.infer<typeof CommitBody>;

export const StopEtaRecord = z.object({
  package: z.number().int(),
  route: z.number().int(),
  sequence_no: z.number().int().nullable(),
  /** ISO times; `from`..`to` is the band told to a recipient. */
  eta: z.string(),
  planned: z.string(),
  from: z.string(),
  to: z.string(),
  late: z.boolean(),
  delay_min: z.number().int(),
  /** What the phone needs to recompute the same offline. */
  service_s: z.number().int(),
  window_start: z.string().nullable(),
  window_end: z.string().nullable(),
});
export type StopEtaRecord = z.infer<typeof StopEtaRecord>;

export const RouteEtas = z.object({
  route: z.number().int(),
  name: z.string(),
  driver: z.number().int().nullable(),
  driver_name: z.string().nullable(),
  status: z.string(),
  open: z.number().int(),
  /** Minutes the next open stop runs behind its planned time (0 when on time). */
  delay_min: z.number().int(),
  late_stops: z.number().int(),
  running_late: z.boolean(),
  finish: z.string().nullable(),
  /** `HH:MM` the driver's shift starts that day: nobody arrives anywhere before it. */
  shift_start: z.string(),
  /** IANA zone `shift_start`, the windows and the route's day are local to (its depot's; issue 31). */
  time_zone: z.string(),
  /** Where the route starts (the depot), when known. */
  start: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  /** The travel model the server times by, so the phone times the same way. */
  travel: z.object({ speedKmh: z.number(), detourFactor: z.number() }),
  stops: z.array(StopEtaRecord),
  /**
   * Parcels handed to the route after the van left and not loaded yet wait at the depot (issue 32):
   * the driver goes back for them before stop `before` (a package id); `eta` is the arrival there.
   */
  reload: z.object({ before: z.number().int(), parcels: z.number().int(), eta: z.string().nullable() }).nullable().optional(),
  /**
   * Collections still to make (issue 32, pickup-and-delivery pairs): each parcel's pickup stop, at its
   * place in the order, with the arrival there (ISO) the same walk gave the deliveries; absent from older servers.
   */
  collections: z.array(z.object({ package: z.number().int(), sequence_no: z.number().int(), eta: z.string().nullable() })).optional(),
});
export type RouteEtas = z.infer<typeof RouteEtas>;

/**
 * Changing the day's routes once they are committed (issue 32): insert new parcels into them, or
 * re-plan the remainder without routes that cannot run. Stops done and the next stop of a route
 * under way stay put; the rest keeps its driver and moves only when that pays.
 */
export const AmendRequest = z.object({
  date: day,
  /**
   * Parcels to add; absent = the day's parcels due (as a plan takes them) that are on no live route.
   * A parcel still waiting for collection (`pickup_requested`) joins as a pair: collected at its
   * pickup point, then delivered, by the same van.
   */
  packages: z.array(idParam).max(200).optional(),
  include_undated: z.boolean().default(false),
  /** With no `packages`: the day's pickups waiting for collection join too, as pairs (as a plan's `include_pickups`). */
  include_pickups: z.boolean().default(false),
  /** Routes that cannot run (a driver called in sick, a van broke down): their open stops go to the others. */
  drop_routes: z.array(idParam).max(200).default([]),
  /** Seconds a change of an existing stop's place must save to be proposed. */
  move_penalty_s: z.number().int().min(0).max(3600).default(300),
});
export type AmendRequest = z.infer<typeof AmendRequest>;

export const AMEND_STOP_STATES = ['next', 'kept', 'moved', 'added'] as const;
export const AmendStopShape = z.object({
  package: z.number().int(),
  hawb: z.string(),
  customer_name: z.string().nullable(),
  address: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  window_start: z.string().nullable(),
  window_end: z.string().nullable(),
  /** ISO arrival on the proposed order. */
  eta: z.string(),
  late: z.boolean(),
  /** `next`: the stop the driver is heading to (locked); `kept`, `moved` or `added` against the committed order. */
  state: z.enum(AMEND_STOP_STATES),
  /** A collection still to make at the parcel's pickup point (issue 32): the parcel is named again later, at its delivery. */
  collect: z.boolean().optional(),
});
export const AmendRouteShape = z.object({
  /** Null for a route the change opens (`opens`) for a driver on shift with no route yet: the commit creates it. */
  route: z.number().int().nullable(),
  opens: z.boolean().optional(),
  name: z.string(),
  status: z.string(),
  driver: z.number().int(),
  driver_name: z.string(),
  time_zone: z.string(),
  start: point.nullable(),
  end: point.nullable(),
  /** Stops already worked today (they stay as they are). */
  done: z.number().int(),
  /** The stops still to visit in the driver's committed order, and in the proposed one. */
  before: z.array(z.number().int()),
  stops: z.array(AmendStopShape),
  added: z.array(z.number().int()),
  moved: z.array(z.number().int()),
  removed: z.array(z.number().int()),
  /** ISO time back at the end depot on the proposed order (null: nothing left to do). */
  back: z.string().nullable(),
  /** The route cannot run: its stops go elsewhere. */
  dropped: z.boolean(),
  /** A van on the road goes back to the depot to load the parcels that join it, before `stops[before]` (issue 32). */
  reload: z.object({ before: z.number().int(), parcels: z.number().int(), eta: z.string() }).nullable().optional(),
  /** The driver's break on the proposed order, taken on arrival at `stops[before]` (= stops.length: before the return). */
  break: z.object({ before: z.number().int(), start: z.string(), end: z.string() }).nullable().optional(),
});
export type AmendRouteShape = z.infer<typeof AmendRouteShape>;
export const AmendProposal = z.object({
  date: z.string(),
  routes: z.array(AmendRouteShape),
  unassigned: z.array(
    z.object({
      package: z.number().int(),
      hawb: z.string(),
      address: z.string(),
      reason: z.enum(['no_coordinates', 'no_room']),
      message: z.string(),
    }),
  ),
});
export type AmendProposal = z.infer<typeof AmendProposal>;

export const AmendCommit = z.object({
  /** The day, needed to open routes (`open_routes`). */
  date: day.optional(),
  /** Each changed route's stops still to visit, in the new order (the next stop first on a route under way). */
  routes: z
    .array(
      z.object({
        route: idParam,
        packages: z.array(idParam).max(2000),
        /** The stop before which the van goes back to the depot for parcels waiting there (the proposal's `reload`). */
        reload_before: idParam.optional(),
      }),
    )
    .max(200)
    .default([]),
  drop_routes: z.array(idParam).max(200).default([]),
  /** Routes to open for drivers on shift with none yet (the proposal's `opens`): each driver's stops in order. */
  open_routes: z
    .array(z.object({ driver: idParam, packages: z.array(idParam).min(1).max(2000) }))
    .max(200)
    .default([]),
});
export type AmendCommit = z.infer<typeof AmendCommit>;
