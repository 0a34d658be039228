import type { Session } from '../app/session';
import { engine } from '../driver/engine';
import type { ActionInput, AnswerSummary, OutboxRow, Rejection, SessionInfo, SyncEngine } from '../sync/index';
import { PATHS } from '../api/paths';
import { api } from '../api/client';
import type { Page } from '../api/paging';
import type { Package } from '../../shared/schemas/package';

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
  /** Part of a label: the scanner read it short. Scan again. */
  | 'misread'
  /** The parcel exists but cannot take this scan in its state. */
  | 'wrong_state'
  /** Saved on this tablet (no answer yet: offline, or the server is slow); it will be sent, once. */
  | 'saved'
  | 'error';

export interface ScanResult {
  kind: ScanKind;
  barcode: string;
  outcome: ScanOutcome;
  message: string;
  /** The parcel as the answer (or the tablet's cached day) knows it. */
  parcel: { hawb: string; status: string | null; customer_name: string | null; suburb_name: string | null } | null;
  /** Where to put the parcel (scan-and-assign-zone). */
  zone: { id: number; name: string } | null;
  /** The zone comes from the tablet's copy of the day, not the server's answer: not confirmed yet. */
  unconfirmed: boolean;
  /** The outbox key of the scan, to follow it until the server answers. */
  key: string | null;
  at: number;
}

export const ENDPOINT: Record<ScanKind, string> = {
  zone: PATHS.scan.zone,
  supervisor: PATHS.scan.supervisor,
  return: PATHS.scan.returnParcel,
};
const KIND_OF_PATH = new Map(Object.entries(ENDPOINT).map(([k, v]) => [v, k as ScanKind]));
const VERB: Record<ScanKind, string> = { zone: 'Inbound', supervisor: 'Check', return: 'Return' };

export const kindOfPath = (path: string): ScanKind | null => KIND_OF_PATH.get(path) ?? null;
export const isDepotRow = (row: Pick<OutboxRow, 'path'>) => KIND_OF_PATH.has(row.path);

/** The depot's scans as outbox actions: the same outbox, device sequence and keys as the driver's. */
export function depotAction(kind: ScanKind, barcode: string, now = Date.now()): ActionInput {
  const code = barcode.trim();
  const body: Record<string, unknown> = { barcode: code, occurred_at: new Date(now).toISOString() };
  if (kind === 'return') body.outcome = 'returned';
  return { path: ENDPOINT[kind], body, effect: null, label: `${VERB[kind]} ${code}` };
}

// The station mounts and the wedge may fire in the same instant: a scan waits for the session to be
// adopted instead of failing with "log in once with signal" on a tablet that is logged in.
let adopting: Promise<unknown> = Promise.resolve();

/** The web login's session, adopted by the tablet's engine so its outbox sends under the same user. */
export function startDepotEngine(s: Session): Promise<SyncEngine> {
  const started = adopt(s);
  adopting = started.catch(() => undefined);
  return started;
}

async function adopt(s: Session): Promise<SyncEngine> {
  const e = engine();
  const user: SessionInfo = { id: s.user.id, name: s.user.name, email: s.user.email, role: s.user.role, company: s.user.company };
  const current = await e.session();
  if (current?.id !== user.id || !(await e.db.meta.get('token')) || (await e.db.meta.get('token'))?.value !== s.token)
    await e.setSession(s.token, user);
  await e.start();
  return e;
}

// ---- The tablet's copy of the day: what the station can say with no signal ----

interface DayEntry {
  zone: { id: number; name: string } | null;
  status: string;
  customer_name: string | null;
  suburb_name: string | null;
}
const DAY_KEY = 'depotDay';
interface DayCopy {
  at: number;
  parcels: Record<string, DayEntry>;
}
/** Parcels the depot may still scan in today: waiting to land, landed, or given to a driver. */
const DAY_STATUSES = 'created,picked_up,received,assigned';
const DAY_MAX_PAGES = 20;

let dayCopy: DayCopy | null = null;

/** Refreshes the copy from the server (with signal); keeps the old one when it cannot. */
export async function refreshDay(): Promise<number> {
  const parcels: Record<string, DayEntry> = {};
  for (let page = 1; page <= DAY_MAX_PAGES; page++) {
    const p = await api.get<Page<Package>>(PATHS.packages, { status: DAY_STATUSES, page, page_size: 500 });
    for (const x of p.results) {
      parcels[x.hawb] = {
        zone: x.zone != null ? { id: x.zone, name: x.zone_name ?? `Zone ${x.zone}` } : null,
        status: x.status,
        customer_name: x.customer_name ?? null,
        suburb_name: x.suburb_name ?? null,
      };
    }
    if (!p.next) break;
  }
  dayCopy = { at: Date.now(), parcels };
  await engine().db.meta.put({ key: DAY_KEY, value: dayCopy });
  return Object.keys(parcels).length;
}

async function dayEntry(code: string): Promise<DayEntry | null> {
  dayCopy ??= ((await engine().db.meta.get(DAY_KEY))?.value as DayCopy | undefined) ?? { at: 0, parcels: {} };
  return dayCopy.parcels[code] ?? null;
}

// ---- Outcomes ----

function fromAnswer(kind: ScanKind, barcode: string, a: AnswerSummary | null | undefined, key: string, at: number): ScanResult {
  const stillAssigned = kind === 'zone' && a?.status === 'assigned';
  const outcome: ScanOutcome = a?.alreadyScanned ? 'repeat' : stillAssigned ? 'assigned' : 'ok';
  const parcel = a?.parcel ? { ...a.parcel, status: a.status } : null;
  return { kind, barcode, outcome, message: a?.message ?? 'Done', parcel, zone: a?.zone ?? null, unconfirmed: false, key, at };
}

/** A refusal in the station's words, from the server's reason (client/driver/refusal.ts has the driver's). */
export function fromRejection(kind: ScanKind, barcode: string, r: Rejection | null, key: string | null, at: number): ScanResult {
  const reason = typeof r?.details?.reason === 'string' ? r.details.reason : null;
  const status = typeof r?.details?.status === 'string' ? r.details.status : null;
  const base = { kind, barcode, parcel: null, zone: null, unconfirmed: false, key, at };
  if (reason === 'misread')
    return { ...base, outcome: 'misread', message: 'Read only part of the label. Scan it again; nothing was recorded.' };
  if (reason === 'unknown_code' || r?.code === 'not_found')
    return { ...base, outcome: 'unknown', message: 'No parcel has this code. Put it aside for the office; it is on their exception list.' };
  if (status) return { ...base, outcome: 'wrong_state', message: `${r?.message ?? 'Refused'}. Put it aside for a supervisor.` };
  return { ...base, outcome: r?.status && r.status >= 400 && r.status < 500 ? 'wrong_state' : 'error', message: r?.message ?? 'Refused' };
}

async function saved(kind: ScanKind, barcode: string, key: string, at: number): Promise<ScanResult> {
  const known = await dayEntry(barcode);
  return {
    kind,
    barcode,
    outcome: 'saved',
    key,
    at,
    message: known
      ? 'Saved on this tablet, will send. From today’s list (not confirmed yet).'
      : 'Saved on this tablet, will send. Not on today’s list here: the office will say.',
    parcel: known ? { hawb: barcode, status: known.status, customer_name: known.customer_name, suburb_name: known.suburb_name } : null,
    zone: kind === 'zone' ? (known?.zone ?? null) : null,
    unconfirmed: true,
  };
}

/** Where a scan is now: answered (journal), refused (outbox, rejected), or still waiting. */
export async function settled(e: SyncEngine, kind: ScanKind, barcode: string, key: string, at: number): Promise<ScanResult | null> {
  const done = await e.db.journal.where('key').equals(key).first();
  if (done) return fromAnswer(kind, barcode, done.answer, key, at);
  const row = await e.db.outbox.where('key').equals(key).first();
  if (row?.status === 'rejected') return fromRejection(kind, barcode, row.rejection, key, at);
  return null;
}

/** Saves one depot scan in the outbox: durable before anything is said. Answers its row, or the error result. */
export async function saveScan(kind: ScanKind, barcode: string, at = Date.now()): Promise<OutboxRow | ScanResult> {
  try {
    await adopting;
    return await engine().enqueue(depotAction(kind, barcode, at));
  } catch (err) {
    return {
      kind,
      barcode,
      outcome: 'error',
      message: `Not saved: ${err instanceof Error ? err.message : String(err)}`,
      parcel: null,
      zone: null,
      unconfirmed: false,
      key: null,
      at,
    };
  }
}

/**
 * The server's answer to a saved scan, waited for up to `waitMs` (none without signal): with signal
 * the station shows the answer as before; without, "saved, will send" with what the tablet's copy of
 * the day knows, marked unconfirmed. Never throws.
 */
export async function answerOf(kind: ScanKind, barcode: string, key: string, at: number, waitMs = 4000): Promise<ScanResult> {
  const e = engine();
  const result = await new Promise<ScanResult | null>((resolve) => {
    let over = false;
    let unsubscribe: (() => void) | null = null;
    const finish = (r: ScanResult | null) => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      unsubscribe?.();
      resolve(r);
    };
    const timer = setTimeout(() => finish(null), navigator.onLine ? waitMs : 0);
    unsubscribe = e.subscribe(
      () =>
        void settled(e, kind, barcode, key, at).then(
          (r) => {
            if (r) finish(r);
          },
          () => undefined,
        ),
    );
    if (over) unsubscribe();
  });
  return result ?? (await saved(kind, barcode, key, at));
}
