import { z } from 'zod';
import { ActionFields, Proof } from './delivery';
import { idParam, latitude, ListQuery, longitude, occurredAt, pageOf, requiredText, updateOf } from './common';
import { Package } from './package';

export const ROUTE_STATUSES = ['planned', 'in_progress', 'completed', 'cancelled'] as const;
export type RouteStatus = (typeof ROUTE_STATUSES)[number];
export const ROUTE_KINDS = ['delivery', 'pickup'] as const;
export type RouteKind = (typeof ROUTE_KINDS)[number];

const day = z.iso.date();
const person = z.object({ id: z.number().int(), name: z.string() });
/** Lists of parcel ids in one body; a day's run is far below this. */
const packageIds = z.array(idParam).max(2000);

export const RouteRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  date: z.string(),
  kind: z.enum(ROUTE_KINDS),
  status: z.enum(ROUTE_STATUSES),
  driver: z.number().int().nullable(),
  driver_name: z.string().nullable(),
  warehouse: z.number().int().nullable(),
  warehouse_name: z.string().nullable(),
  start_latitude: z.number().nullable(),
  start_longitude: z.number().nullable(),
  total_distance_m: z.number().nullable(),
  optimized_at: z.string().nullable(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  package_count: z.number().int(),
  open_count: z.number().int(),
  /** Delivered (delivery routes) or collected (pickup routes). */
  done_count: z.number().int(),
  /** Every parcel of the route, in sequence order (unsequenced last). */
  packages: z.array(z.number().int()),
  /**
   * Pickup stops of parcels this route collects and then delivers (issue 32), each at its place in
   * the route's order (`sequence_no` counts with the parcels' own). Absent when the route has none.
   */
  pickup_stops: z
    .array(
      z.object({
        package: z.number().int(),
        sequence_no: z.number().int(),
        /** The pickup point the parcel is collected from: its name and address, and where it is. */
        address: z.string().nullable(),
        latitude: z.number().nullable(),
        longitude: z.number().nullable(),
      }),
    )
    .optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RouteRecord = z.infer<typeof RouteRecord>;

export const RouteCreate = z.object({
  name: requiredText(200),
  date: day,
  kind: z.enum(ROUTE_KINDS).default('delivery'),
  driver: idParam.nullable().optional(),
  warehouse: idParam.nullable().optional(),
  start_latitude: latitude.nullable().optional(),
  start_longitude: longitude.nullable().optional(),
  packages: packageIds.default([]),
});
export type RouteCreate = z.infer<typeof RouteCreate>;

/** The driver changes only through the assign operations, so the parcels follow the route. */
export const RouteUpdate = updateOf(RouteCreate.omit({ kind: true, driver: true }).extend({ status: z.enum(ROUTE_STATUSES) }));

export const RouteListQuery = ListQuery.extend({
  status: z.string().max(200).optional(),
  kind: z.string().max(50).optional(),
  driver: idParam.optional(),
  date: day.optional(),
  date_from: day.optional(),
  date_to: day.optional(),
});

export const RouteStatusBody = z.object({ status: z.enum(ROUTE_STATUSES), ...ActionFields });
export const AssignRouteBody = z.object({ driver: idParam });

export const OptimizeBody = z.object({
  start_latitude: latitude.optional(),
  start_longitude: longitude.optional(),
  /** Closed tour back to the start instead of a path ending at the last stop. */
  return_to_start: z.boolean().default(false),
  /** Optimiser budget; the server caps it (at most 1000 ms). */
  time_limit_ms: z.number().int().min(1).max(1000).optional(),
});

export const SequenceBody = z.object({ packages: packageIds.min(1), ...ActionFields });

export const RouteAnswer = z.object({ success: z.boolean(), message: z.string(), route: RouteRecord });
export const RoutePackagesAnswer = z.object({ success: z.boolean(), route: RouteRecord, packages: z.array(Package) });
export const OptimizeAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  route: RouteRecord,
  order: z.array(z.number().int()),
  total_distance_m: z.number(),
  /** Open parcels without coordinates: kept after the placed ones, in their previous order. */
  unplaced: z.array(z.number().int()),
  packages: z.array(Package),
});
export const AssignRouteAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  route: RouteRecord,
  moved: z.array(z.number().int()),
  skipped: z.array(z.object({ package: z.number().int(), reason: z.string() })),
  previous_driver: z.number().int().nullable(),
});

export const DriverQuery = z.object({ driver: idParam.optional(), date: day.optional(), status: z.string().max(200).optional() });
export const RouteWithPackages = z.object({ route: RouteRecord, packages: z.array(Package) });
export const DriverRoutesAnswer = z.object({ success: z.boolean(), driver: person, results: z.array(RouteWithPackages) });
export const RouteNamesAnswer = z.object({
  success: z.boolean(),
  results: z.array(
    z.object({ id: z.number().int(), name: z.string(), date: z.string(), status: z.enum(ROUTE_STATUSES), kind: z.enum(ROUTE_KINDS) }),
  ),
});
export const RouteCountAnswer = z.object({
  success: z.boolean(),
  driver: person.nullable(),
  date: z.string().nullable(),
  total: z.number().int(),
  by_status: z.record(z.enum(ROUTE_STATUSES), z.number().int()),
  packages: z.object({ total: z.number().int(), open: z.number().int(), delivered: z.number().int(), failed: z.number().int() }),
});

export const PodAnswer = z.object({
  success: z.boolean(),
  route: RouteRecord,
  delivered: z.number().int(),
  failed: z.number().int(),
  results: z.array(Proof),
});

export const DashboardListQuery = ListQuery.extend({ driver: idParam.optional(), route: idParam.optional(), zone: idParam.optional() });
export const CompletedQuery = ListQuery.extend({ driver: idParam.optional(), date_from: day.optional(), date_to: day.optional() });
export const pageOfPackages = pageOf(Package);

export const DashboardCountAnswer = z.object({
  success: z.boolean(),
  date: z.string(),
  /** IANA zone `date` is a local day of (the business's; issue 31). */
  time_zone: z.string(),
  packages: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    assigned: z.number().int(),
    out_for_delivery: z.number().int(),
    delivered_today: z.number().int(),
    failed_today: z.number().int(),
    unrouted_open: z.number().int(),
  }),
  routes: z.object({ date: z.string(), total: z.number().int(), by_status: z.record(z.enum(ROUTE_STATUSES), z.number().int()) }),
  drivers: z.object({ active: z.number().int(), on_route: z.number().int(), reporting: z.number().int() }),
});

export const SequenceWiseQuery = z.object({ date: day.optional(), driver: idParam.optional(), kind: z.enum(ROUTE_KINDS).optional() });
export const SequenceWiseAnswer = z.object({ success: z.boolean(), date: z.string(), results: z.array(RouteWithPackages) });

export const MapPackage = z.object({
  id: z.number().int(),
  hawb: z.string(),
  status: z.string(),
  sequence_no: z.number().int().nullable(),
  route: z.number().int().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  customer_name: z.string().nullable(),
  customer_address: z.string().nullable(),
});
export const PositionRecord = z.object({
  latitude: z.number(),
  longitude: z.number(),
  accuracy: z.number().nullable(),
  occurred_at: z.string(),
  received_at: z.string(),
});
export const MapAnswer = z.object({
  success: z.boolean(),
  drivers: z.array(
    z.object({
      driver: person,
      position: PositionRecord.nullable(),
      route: z.object({ id: z.number().int(), name: z.string(), status: z.enum(ROUTE_STATUSES) }).nullable(),
      packages: z.array(MapPackage),
    }),
  ),
  unassigned: z.array(MapPackage),
});
export const MapQuery = z.object({ driver: idParam.optional() });

// Driver positions (Driver Lat-Long Manage, mobile Tracking).
export const PositionInput = z.object({
  latitude,
  longitude,
  accuracy: z.number().min(0).max(100_000).optional(),
  occurred_at: occurredAt,
});
export const PositionBatchBody = z.object({ positions: z.array(PositionInput).min(1).max(500) });
export const PositionBatchAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  stored: z.number().int(),
  duplicates: z.number().int(),
});
export const LatestPositionsAnswer = z.object({
  success: z.boolean(),
  results: z.array(z.object({ driver: person, position: PositionRecord })),
});
export const TrailParams = z.object({ driver_id: idParam });
export const TrailQuery = z.object({ from: occurredAt.optional(), to: occurredAt.optional() });
export const TrailAnswer = z.object({
  success: z.boolean(),
  driver: person,
  from: z.string(),
  to: z.string(),
  truncated: z.boolean(),
  results: z.array(PositionRecord),
});

export const PickupAutoRouteBody = z.object({
  driver: idParam,
  date: day,
  name: requiredText(200).optional(),
  warehouse: idParam.nullable().optional(),
  start_latitude: latitude.optional(),
  start_longitude: longitude.optional(),
});
