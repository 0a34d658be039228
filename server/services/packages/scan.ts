import type { Deps } from '../../deps';
import { ApiError } from '../../errors';
import type { SessionUser } from '../auth/session';
import { findByBarcode, recordEvent, transition, type ActionMeta } from './lifecycle';
import type { PackageRow } from './shape';

export interface ScanResult { row: PackageRow; already: boolean }

/**
 * The driver loads a parcel on the van: it must be theirs and waiting (assigned, or failed for a
 * reattempt). A second scan of a loaded parcel is harmless and says so.
 */
export function inboundScan(deps: Deps, driver: SessionUser, barcode: string, meta: ActionMeta, deviceId?: string | null): ScanResult {
  const now = deps.clock.now();
  const row = findByBarcode(deps.db, barcode);
  if (!row || row.deleted_at != null) {
    throw new ApiError(404, 'not_found', `No parcel has the barcode ${barcode}`, [{ path: 'barcode', message: 'unknown code' }], { barcode });
  }
  const actor = { userId: driver.id, deviceId };
  if (row.assigned_to_id !== driver.id) {
    throw new ApiError(409, 'conflict', `Parcel ${row.hawb} is not assigned to you`, [], { package: row.id, hawb: row.hawb, status: row.status, reason: 'not_yours' })
      .withRecord(() => recordEvent(deps.db, now, row, 'scan_rejected_not_yours', actor, meta));
  }
  if (row.status === 'out_for_delivery' && row.is_scanned) {
    recordEvent(deps.db, now, row, 'scan_repeat', actor, meta);
    return { row, already: true };
  }
  if (row.status !== 'assigned' && row.status !== 'failed') {
    throw new ApiError(409, 'invalid_transition', `Parcel ${row.hawb} is ${row.status.replace(/_/g, ' ')}; it cannot be loaded`, [],
      { package: row.id, hawb: row.hawb, status: row.status })
      .withRecord(() => recordEvent(deps.db, now, row, 'scan_rejected_state', actor, meta));
  }
  const updated = transition(deps.db, now, row, 'out_for_delivery', 'inbound_scan', actor, meta, { is_scanned: true });
  return { row: updated, already: false };
}
