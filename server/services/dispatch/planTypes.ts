import type { LatLng } from '../../../shared/routing/haversine';
import type { PackageRow } from '../packages/shape';
import type { WindowInfo } from './windows';

/** A driver and a parcel as a day's plan sees them: shared by the problem, its rules and the proposal. */
export interface PlanDriver {
  id: number;
  name: string;
  vehicleId: number | null;
  vehicleName: string | null;
  shiftStart: string;
  shiftEnd: string;
  /** Epoch ms the van can leave: the shift start, or now when planning a day already under way. */
  departAt: number;
  start: LatLng | null;
  end: LatLng | null;
  startWarehouse: number | null;
  /** IANA zone the shift is typed in: its start depot's, else the business's (issue 31). */
  zone: string;
  capacity: { kg: number | null; m3: number | null; parcels: number | null };
  /** What the driver and the van can do together (issue 32). */
  skills: string[];
  /** The van's own rates; null parts take the plan settings'. */
  rates: { per_km: number | null; per_hour: number | null; fixed: number | null };
  /** The shift's own break, else null (the settings' break applies). */
  break: { minutes: number; after_min: number; after_max: number } | null;
  /** Epoch ms the driver's route that day really left (its `started_at`), when one has: the break counts from it. */
  startedAt?: number | null;
}
/** Where a paired pickup is collected (issue 32): its pickup point. */
export interface PickupOrigin {
  point: number;
  latitude: number;
  longitude: number;
  address: string;
}
export interface PlanParcel {
  row: PackageRow;
  window: WindowInfo;
  kg: number;
  m3: number;
  /** The window as instants: `HH:MM` on the plan's day in the parcel's depot's zone (`zone`). */
  windowAt: [number, number] | null;
  zone: string;
  /** A pickup planned as a pair: where the van collects it before delivering it. */
  pickup?: PickupOrigin;
}
