import type { Package } from '../../shared/schemas/package';
import { ApiError, api } from '../api/client';
import { PATHS } from '../api/paths';

export type ScanKind = 'zone' | 'supervisor' | 'return';

export type ScanOutcome =
  /** Accepted: the parcel moved on. */
  | 'ok'
  /** Zone scan of a parcel already given to a driver: it landed at the depot but stays assigned (not "Received"). */
  | 'assigned'
  /** Accepted earlier already; nothing changed. */
  | 'repeat'
  /** No parcel has this code. */
  | 'unknown'
  /** The parcel exists but cannot take this scan in its state (or belongs elsewhere). */
  | 'wrong_state'
  /** Not sent: no connection. The caller keeps it to retry. */
  | 'offline'
  | 'error';

export interface ScanResult {
  kind: ScanKind;
  barcode: string;
  outcome: ScanOutcome;
  message: string;
  package: Package | null;
  /** Where to put the parcel (scan-and-assign-zone). */
  zone: { id: number; name: string } | null;
  at: number;
}

interface ScanAnswer {
  message: string;
  already_scanned?: boolean;
  package?: Package;
  zone?: { id: number; name: string } | null;
}

const ENDPOINT: Record<ScanKind, string> = {
  zone: PATHS.scan.zone,
  supervisor: PATHS.scan.supervisor,
  return: PATHS.scan.returnParcel,
};

function zoneOf(answer: ScanAnswer | null | undefined): ScanResult['zone'] {
  if (answer?.zone) return answer.zone;
  const p = answer?.package;
  return p?.zone != null ? { id: p.zone, name: p.zone_name ?? `Zone ${p.zone}` } : null;
}

function bodyFor(kind: ScanKind, barcode: string): Record<string, unknown> {
  const base = { barcode, occurred_at: new Date().toISOString() };
  return kind === 'return' ? { ...base, outcome: 'returned' } : base;
}

/**
 * Sends one depot scan and says what happened, never throwing: the screen turns every answer
 * into a colour and a sound. Today this calls the REST endpoint directly; the sync engine
 * (client/sync/) can take its place behind the same signature, queueing offline scans.
 */
export async function enqueueScan(kind: ScanKind, barcode: string): Promise<ScanResult> {
  const at = Date.now();
  const result = (outcome: ScanOutcome, message: string, answer?: ScanAnswer | null, details?: Record<string, unknown>): ScanResult => ({
    kind, barcode, outcome, message, at,
    package: answer?.package ?? (details?.package as Package | undefined) ?? null,
    zone: zoneOf(answer),
  });
  try {
    const answer = await api.post<ScanAnswer>(ENDPOINT[kind], bodyFor(kind, barcode));
    const stillAssigned = kind === 'zone' && answer.package?.status === 'assigned';
    return result(answer.already_scanned ? 'repeat' : stillAssigned ? 'assigned' : 'ok', answer.message, answer);
  } catch (err) {
    if (err instanceof ApiError) {
      if (err.isNetwork) return result('offline', 'Not sent: no connection', null);
      if (err.status === 404 && err.code === 'not_found' && !/No route/.test(err.message)) return result('unknown', err.message || 'Unknown code', null);
      if (err.status === 409 || err.status === 422) return result('wrong_state', err.message, null, err.details);
      return result('error', err.message, null);
    }
    return result('error', err instanceof Error ? err.message : String(err), null);
  }
}
