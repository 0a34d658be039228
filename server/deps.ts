import type { Db } from './db/client';
import type { FileStore } from './files/index';
import type { Clock } from './clock';
import type { Mailer } from './services/auth/mailer';
import type { PermissionSource } from './services/auth/session';
import type { RateLimiter } from './http/rateLimit';
import type { LoginThrottle } from './services/auth/throttle';
import type { Units as WriteBatch } from './db/engine/types';
import type { SheetParser } from './services/uploads/parser';
import type { PdfRenderer } from './services/documents/renderer';
import { DEFAULT_TIME_ZONE } from '../shared/time/zone';

export interface Config {
  /** Lifetime of login tokens. */
  tokenTtlMs: number;
  resetTtlMs: number;
  maxAttempts: number;
  /**
   * Base URL of the server for links sent away from a request (password reset e-mails). Never derived
   * from request headers: without it, reset links are refused (server/http/client.ts).
   */
  publicUrl?: string;
  /** How many reverse proxies of ours stand in front (TRUST_PROXY); 0 trusts no X-Forwarded-For. */
  trustProxy: number;
  /** A staff or company session unused this long stops working; drivers' sessions do not idle out. */
  staffIdleMs: number;
  /** Entries each in-memory throttle scope keeps (SQLite; server/http/rateLimit.ts); live locks are never dropped. */
  limiterCapacity: number;
  /** Directory of the built PWA to serve at `/`, if any. */
  staticDir?: string;
  idempotencyRetentionMs: number;
  logRequests: boolean;
  /** Nominatim/Photon search endpoint (e.g. http://localhost:8080/search); unset = master data only (issue 16). */
  geocoderUrl?: string;
  /** At most one geocoder request per this many ms (Nominatim's public usage policy asks for 1 s). */
  geocoderIntervalMs: number;
  /** A geocoder request slower than this counts as failed. */
  geocoderTimeoutMs: number;
  /** OSRM base URL (e.g. http://localhost:5000); unset = great-circle travel times. */
  osrmUrl?: string;
  /** Great-circle travel times: road distance ≈ straight line × detour factor, at this speed. */
  travelSpeedKmh: number;
  detourFactor: number;
  /**
   * Webhook receivers allowed on private addresses (WEBHOOK_ALLOW_HOSTS: host names or CIDRs, comma
   * separated). Every other target resolving to loopback, private, link-local or reserved is refused.
   */
  webhookAllow: string[];
  /** Spreadsheets/CSV read at once (each in a worker thread); more answer 503 with Retry-After. */
  uploadParsers: number;
  /** A file not read by then is refused and its worker stopped. */
  uploadParseTimeoutMs: number;
  /** Bytes of stored files a company (all its logins) may hold (UPLOAD_QUOTA_MB). */
  uploadQuotaBytes: number;
  /** Bytes an account without a company (drivers, staff) may store per 30 days (UPLOAD_ACCOUNT_QUOTA_MB). */
  uploadAccountQuotaBytes: number;
  /** Bytes a company, or a user without one, may upload per minute. */
  uploadBytesPerMinute: number;
  /** Bytes on disk that no file record names are removed after this long (a write may still be committing before). */
  orphanFileGraceMs: number;
  /**
   * Parcels final (delivered, returned, cancelled) and untouched for this many days move to cold
   * storage (HISTORY_AFTER_DAYS; 0 = never). They stay readable, searchable and in reports.
   */
  historyAfterDays: number;
  /**
   * IANA zone of the business's days, shifts, windows and messages (TIME_ZONE, default Australia/Sydney)
   * until an admin sets one on the business profile; a depot may have its own (issue 31, docs/decisions-time.md).
   */
  timeZone: string;
}

export const defaultConfig: Config = {
  tokenTtlMs: 30 * 24 * 3600_000,
  resetTtlMs: 3600_000,
  maxAttempts: 3,
  trustProxy: 0,
  staffIdleMs: 12 * 3600_000,
  limiterCapacity: 50_000,
  idempotencyRetentionMs: 30 * 24 * 3600_000,
  logRequests: false,
  geocoderIntervalMs: 1000,
  geocoderTimeoutMs: 5000,
  travelSpeedKmh: 30,
  detourFactor: 1.3,
  webhookAllow: [],
  uploadParsers: 2,
  uploadParseTimeoutMs: 20_000,
  uploadQuotaBytes: 5 * 1024 ** 3,
  uploadAccountQuotaBytes: 4 * 1024 ** 3,
  uploadBytesPerMinute: 60 * 1024 * 1024,
  orphanFileGraceMs: 24 * 3600_000,
  historyAfterDays: 90,
  timeZone: DEFAULT_TIME_ZONE,
};

/** Everything a request handler may touch; built by the caller of createApp, never a module global. */
export interface Deps {
  db: Db;
  files: FileStore;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  /** Permissions beyond the role's defaults (permission groups). */
  permissionSource?: PermissionSource;
  /** Per-app throttles (login attempts, public registration), never module globals; shared by every process on PostgreSQL. */
  limiter: RateLimiter;
  /** Password attempts (login, password change): counted before hashing, growing delays. */
  throttle: LoginThrottle;
  /** Group commit of the mutation routes: their units of work share one COMMIT (docs/architecture.md). */
  writes: WriteBatch;
  /** Reads uploaded spreadsheets and CSV off the request thread (services/uploads/parser.ts). */
  sheets: SheetParser;
  /** Draws labels, manifests and invoice PDFs off the request thread, fair between companies (services/documents/renderer.ts). */
  pdfs: PdfRenderer;
}
