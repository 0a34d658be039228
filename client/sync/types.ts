import type { DoorInfo } from '../../shared/door';
import type { CodOnPhone } from '../../shared/cod';
import type { Package } from '../../shared/schemas/package';
import type { SyncUpserts } from '../../shared/schemas/sync';

export type { Package };
export type FailedStatus = SyncUpserts['failed_delivery_statuses'][number];
export type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * `held`: saved on the device during the driver's undo window, not sendable yet and without a seq
 * (it takes one when the window closes, so the seq order is the order actions were released in).
 */
export type OutboxStatus = 'held' | 'queued' | 'sending' | 'rejected';

/** What a queued action will do to a package once the server accepts it, shown before it does. */
export interface PendingEffect {
  packageId?: number;
  /** Scans name the parcel by its barcode. */
  hawb?: string;
  patch: Partial<Package>;
}

/** The server's refusal of an action, kept for the driver to read. */
export interface Rejection {
  status: number;
  code: string;
  message: string;
  /** The server's `details` (e.g. `{ status: 'cancelled', reason: 'final' }`), so the screen can say what happened. */
  details?: Record<string, unknown>;
}

export interface OutboxRow {
  id?: number;
  /** X-Device-Seq: 1, 2, 3, ... per device, shared by every tab. A held row has a negative placeholder until released. */
  seq: number;
  /** Idempotency-Key. */
  key: string;
  /** Only sent with this user's token; another driver on the same phone never sends it. */
  userId: number;
  method: Method;
  /** Relative to the API base: `scan-package-api/inbound-scan/`. */
  path: string;
  body: Record<string, unknown>;
  /** client ids of the blobs this action names, uploaded before it. */
  blobRefs: string[];
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  rejection: Rejection | null;
  effect: PendingEffect | null;
  /** For the screen: "Loaded AB123". */
  label: string;
  createdAt: number;
  /** Put back from the journal after a server restore; its answer may be a replay of an old state. */
  resent?: boolean;
  /** Device time the undo window of a held row closes. */
  holdUntil?: number | null;
}

/**
 * An action the server acknowledged, kept after it left the outbox so it can be sent again (same
 * key, same seq, same body) if the server is restored from a backup taken before it.
 */
export interface JournalRow {
  seq: number;
  key: string;
  userId: number;
  method: Method;
  path: string;
  body: Record<string, unknown>;
  blobRefs: string[];
  effect: PendingEffect | null;
  label: string;
  /** Device time of the acknowledgement; the row is pruned JOURNAL_KEPT_MS after it. */
  acknowledgedAt: number;
  /** What the server answered, in brief, for a screen that shows it after the fact (the depot's zone). */
  answer?: AnswerSummary | null;
}

/** The parts of an accepted action's answer a screen shows: its message, a repeat, the zone, the parcel's state. */
export interface AnswerSummary {
  message: string | null;
  alreadyScanned: boolean;
  zone: { id: number; name: string } | null;
  status: string | null;
  parcel: { hawb: string; customer_name: string | null; suburb_name: string | null } | null;
}

export interface BlobRow {
  clientId: string;
  bytes: ArrayBuffer;
  mime: string;
  kind: 'photo' | 'signature' | 'document' | 'pod';
  sha256: string;
  uploaded: boolean;
  serverId: number | null;
  createdAt: number;
}

/** Server copies carry the device time they were written, to age out delivered history. */
/**
 * `recipient_instructions` and `attempts` arrive with the sync feed only (shared/schemas/sync.ts
 * SyncPackage); a copy saved before the feed carried `attempts` has none.
 */
export type StoredPackage = Package & {
  recipient_instructions?: string | null;
  attempts?: number;
  door?: DoorInfo;
  cod?: CodOnPhone;
  syncedAt: number;
};
export type StoredStatus = FailedStatus & { syncedAt: number };
/** Barcodes of parcels that left this device's scope, so a scan says "not yours" rather than "unknown". */
export interface GoneRow {
  hawb: string;
  id: number;
  at: number;
}
export interface MetaRow {
  key: string;
  value: unknown;
}
export interface LeaseRow {
  name: string;
  owner: string;
  expires: number;
}

export interface SessionInfo {
  id: number;
  name: string;
  email: string;
  role: string;
  company: number | null;
}

/** A file an action carries (photo, signature), stored as bytes until uploaded. */
export interface FileInput {
  bytes: ArrayBuffer | Uint8Array | Blob;
  mime: string;
  kind?: BlobRow['kind'];
  /** Chosen here when absent; the action names the file by it. */
  clientId?: string;
}

export interface ActionInput {
  method?: Method;
  path: string;
  body: Record<string, unknown>;
  files?: FileInput[];
  effect?: PendingEffect | null;
  label?: string;
}

/**
 * Whether the last attempt reached the server: `no_signal` (the phone says it has no network),
 * `no_answer` (it has network but the server did not answer), `server_error` (the server answered
 * that it cannot take work now: 5xx, 429).
 */
export type Reach = 'ok' | 'no_signal' | 'no_answer' | 'server_error';

/** Something the server said about an accepted action that the driver must know (e.g. accepted but flagged). */
export interface Notice {
  id: string;
  at: number;
  label: string;
  message: string;
  packageId: number | null;
}

export interface SyncStatus {
  /** Saved on the device inside the undo window; sent when it closes. */
  held: number;
  queued: number;
  sending: number;
  rejected: number;
  online: boolean;
  /** The token was refused: nothing is lost, the queue waits for `login()`. */
  loginNeeded: boolean;
  syncing: boolean;
  lastSyncedAt: number | null;
  lastError: string | null;
  /** Device time of the next retry after a failure, if one is scheduled. */
  nextRetryAt: number | null;
  /** Acknowledged actions put back in the outbox at the last restore the device noticed (0: never). */
  resentAfterRestore: number;
  reach: Reach;
  /** Notices not yet dismissed by the driver. */
  notices: number;
}

export type ViewPackage = Package & {
  /** The recipient's delivery instructions, from the sync feed (absent when none). */
  recipient_instructions?: string | null;
  /** What the door needs and what the recipient chose (issue 34, shared/door.ts), from the sync feed (absent when nothing). */
  door?: DoorInfo;
  /** What the driver must collect on delivery (issue 34, shared/cod.ts), from the sync feed (absent when nothing). */
  cod?: CodOnPhone;
  /**
   * Failed attempts in this delivery cycle, as the server counts them (a queued failure counted in):
   * what the must-return rule reads (shared/driverActions.ts), never a display label.
   */
  attempts: number;
  /** An accepted-here, not-yet-answered action changed what is shown. */
  pending: { outboxId: number; label: string; status: OutboxStatus } | null;
  rejected: { outboxId: number; label: string; message: string; rejection: Rejection | null; path: string } | null;
};

export type LocalCheckResult = 'loadable' | 'already_loaded' | 'not_yours' | 'unknown' | 'not_loadable';
export interface LocalCheck {
  result: LocalCheckResult;
  package: ViewPackage | null;
  message: string;
}
