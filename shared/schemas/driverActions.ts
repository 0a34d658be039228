import type { DriverActionKind } from '../driverActions';
import { DeliverBody, FailBody, ScanBody } from './delivery';

/** The body of each driver action (shared/driverActions.ts declares its path and rules): the server's routes validate with these. */
export const DRIVER_ACTION_BODIES = {
  load: ScanBody,
  unload: ScanBody,
  deliver: DeliverBody,
  fail: FailBody,
} as const satisfies Record<DriverActionKind, unknown>;
