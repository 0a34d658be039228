import { applyDriverAction, driverActionOfPath, driverOutcome } from '../../shared/driverActions';
import type { SyncDb } from './db';
import type { LocalCheck, OutboxRow, StoredPackage, ViewPackage } from './types';

function strip(p: StoredPackage): ViewPackage {
  const { syncedAt: _syncedAt, ...rest } = p;
  // A copy saved before the feed carried `attempts`: its failure reasons are the best count it has.
  return { ...rest, attempts: p.attempts ?? p.package_failed_delivery_status.length, pending: null, rejected: null };
}

/**
 * A queued action laid over the parcel: a driver action (known by its path) changes it as the shared
 * rules say the server will (shared/driverActions.ts), attempts counted; any other request by the
 * patch it carries. The attempt limit is not applied here: it binds what the phone offers
 * (client/driver/day.ts), and a queued action is shown as the driver took it until the server answers.
 */
function layOver(target: ViewPackage, row: OutboxRow, userId: number): void {
  const action = driverActionOfPath(row.path);
  if (!action) {
    Object.assign(target, row.effect?.patch ?? {});
    return;
  }
  const next = applyDriverAction(action.kind, target, { driverId: userId, maxAttempts: Number.POSITIVE_INFINITY });
  Object.assign(target, { status: next.status, attempts: next.attempts, is_scanned: next.is_scanned, assigned_to_id: next.assigned_to_id });
}

function targets(row: OutboxRow, byId: Map<number, ViewPackage>, byHawb: Map<string, ViewPackage>): ViewPackage | undefined {
  const e = row.effect;
  if (!e) return undefined;
  return (e.packageId != null ? byId.get(e.packageId) : undefined) ?? (e.hawb != null ? byHawb.get(e.hawb.trim()) : undefined);
}

/**
 * Server copies with this user's queued actions laid over them, in queue order: a queued delivery
 * shows the parcel as delivered (pending). Rejected actions change nothing but are pointed out.
 */
export async function pendingView(db: SyncDb, userId: number | null): Promise<ViewPackage[]> {
  const [copies, all] = await Promise.all([db.packages.toArray(), db.outbox.orderBy('seq').toArray()]);
  return viewOf(copies, all, userId);
}

/** pendingView from rows already read: the copies, and the outbox in seq order. */
export function viewOf(copies: StoredPackage[], all: OutboxRow[], userId: number | null): ViewPackage[] {
  // Held rows (undo window) are the newest actions: laid over last, in the order they were held.
  const rows = [
    ...all.filter((r) => r.status !== 'held'),
    ...all.filter((r) => r.status === 'held').sort((a, b) => a.createdAt - b.createdAt || b.seq - a.seq),
  ];
  const view = copies.map(strip);
  const byId = new Map(view.map((p) => [p.id, p]));
  const byHawb = new Map(view.map((p) => [p.hawb, p]));
  for (const row of rows) {
    if (row.userId !== userId || row.id == null) continue;
    const target = targets(row, byId, byHawb);
    if (!target) continue;
    if (row.status === 'rejected') {
      target.rejected = {
        outboxId: row.id,
        label: row.label,
        message: row.rejection?.message ?? 'Refused by the server',
        rejection: row.rejection,
        path: row.path,
      };
      continue;
    }
    layOver(target, row, row.userId);
    target.pending = { outboxId: row.id, label: row.label, status: row.status };
  }
  return view.sort((a, b) => (a.sequence_no ?? Number.MAX_SAFE_INTEGER) - (b.sequence_no ?? Number.MAX_SAFE_INTEGER) || a.id - b.id);
}

/**
 * A scan checked against the local manifest before anything is sent (DESIGN.md section 8), so a
 * wrong parcel is flagged with no signal. The server still decides when the scan is replayed.
 */
export async function checkBarcode(db: SyncDb, userId: number | null, barcode: string): Promise<LocalCheck> {
  const code = barcode.trim();
  const copy = await db.packages.where('hawb').equals(code).first();
  if (!copy) {
    const gone = await db.gone.get(code);
    return gone
      ? { result: 'not_yours', package: null, message: `Parcel ${code} is no longer assigned to you` }
      : { result: 'unknown', package: null, message: `Parcel ${code} is not on your manifest` };
  }
  const view = (await pendingView(db, userId)).find((p) => p.id === copy.id) ?? strip(copy);
  if (userId != null && view.assigned_to_id !== userId) {
    return { result: 'not_yours', package: view, message: `Parcel ${code} is assigned to ${view.assigned_to?.name ?? 'someone else'}` };
  }
  // The shared rule for a scan onto the van; the attempt limit is the driver app's to apply (client/driver/Scan.tsx).
  const load = driverOutcome('load', view, { driverId: userId ?? view.assigned_to_id ?? 0, maxAttempts: Number.POSITIVE_INFINITY });
  if (load.ok && load.already) return { result: 'already_loaded', package: view, message: `Parcel ${code} is already loaded` };
  if (load.ok) return { result: 'loadable', package: view, message: `Parcel ${code} is yours: load it` };
  return { result: 'not_loadable', package: view, message: `Parcel ${code} is ${view.status.replace(/_/g, ' ')}; it cannot be loaded` };
}
