import { codeOf } from '../db/engine/errors';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { ApiError } from '../errors';
import type { ErrorDetail } from '../../shared/errors';

export function zodDetails(error: z.ZodError, prefix = ''): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
    message: issue.message,
  }));
}

export function validationError(error: z.ZodError, where: string): ApiError {
  const errors = zodDetails(error, where === 'body' ? '' : where);
  const first = errors[0];
  const message = first ? `Invalid ${where}: ${first.path ? `${first.path}: ` : ''}${first.message}` : `Invalid ${where}`;
  return new ApiError(400, 'validation_error', message, errors);
}

function fromHttpException(err: HTTPException): ApiError {
  switch (err.status) {
    case 413:
      return new ApiError(413, 'payload_too_large', 'Request body is too large');
    case 415:
      return new ApiError(415, 'unsupported_media_type', err.message || 'Unsupported media type');
    case 401:
      return new ApiError(401, 'not_authenticated', err.message || 'Authentication required');
    case 404:
      return new ApiError(404, 'not_found', err.message || 'Not found');
    default:
      return new ApiError(400, 'validation_error', err.message || 'Bad request');
  }
}

/**
 * Storage trouble (disk full, read-only file system, I/O error, a lock held too long) is not a bug
 * in the request: the same request will work once an operator fixes the disk, so it is a 503 the
 * device's outbox backs off from and retries, never stored as the Idempotency-Key's answer.
 */
const STORAGE_ERRORS: [RegExp, string][] = [
  [
    /^SQLITE_(FULL|IOERR)/,
    'The server cannot write to its database right now (disk full or I/O error). Nothing was changed; try again later.',
  ],
  [/^SQLITE_(READONLY|CANTOPEN)/, 'The server database is read-only right now. Nothing was changed; try again later.'],
  [/^SQLITE_(BUSY|LOCKED)/, 'The server database is busy. Nothing was changed; try again shortly.'],
  // A write batch undone by SQLite after a storage failure elsewhere in it (server/db/engine/sqliteUnits.ts).
  [/^SQLITE_ABORT_ROLLBACK$/, 'The server could not finish writing to its database. Nothing was changed; try again later.'],
  // PostgreSQL: disk full or out of resources (class 53), a read-only standby (25006), the server
  // restarting or unreachable (57P0x, class 08, refused connections), contention left after retries.
  [
    /^(53\d\d\d|53R00)$/,
    'The server cannot write to its database right now (disk full or out of resources). Nothing was changed; try again later.',
  ],
  [/^25006$/, 'The server database is read-only right now. Nothing was changed; try again later.'],
  [
    /^(57P0[1-3]|08\d\d\d|08P01|ECONNREFUSED|ECONNRESET|ETIMEDOUT)$/,
    'The server cannot reach its database right now. Nothing was changed; try again later.',
  ],
  [/^(40001|40P01|55P03)$/, 'The server database is busy. Nothing was changed; try again shortly.'],
  // The file store (disk or S3 bucket) failing: server/files/store.ts FileStoreError.
  [/^FILE_STORE_UNAVAILABLE$/, 'The server cannot reach its file storage right now. Nothing was changed; try again later.'],
];
export const STORAGE_RETRY_AFTER_S = 30;

function storageError(err: unknown): ApiError | null {
  const code = codeOf(err);
  for (const [pattern, message] of STORAGE_ERRORS) {
    if (pattern.test(code))
      return new ApiError(503, 'service_unavailable', message, [], {
        retry_after: /BUSY|LOCKED|^40|^55P03/.test(code) ? 1 : STORAGE_RETRY_AFTER_S,
      });
  }
  return null;
}

/** The one place that turns anything thrown into the error body of DESIGN.md section 3. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const storage = storageError(err);
  if (storage) return storage;
  if (err instanceof HTTPException) return fromHttpException(err);
  if (err instanceof z.ZodError) return validationError(err, 'body');
  if (err instanceof SyntaxError) return new ApiError(400, 'validation_error', 'Malformed JSON in request body');
  return new ApiError(500, 'internal_error', 'Internal server error');
}

export function errorResponse(c: Context, err: unknown): Response {
  const apiError = toApiError(err);
  if (apiError.status === 500) console.error('[courier] unhandled error', c.req.method, c.req.path, err);
  if (apiError.status === 503)
    console.error('[courier] storage unavailable', c.req.method, c.req.path, err instanceof Error ? err.message : err);
  const res = c.json(apiError.toBody(), apiError.status as ContentfulStatusCode);
  if ((apiError.status === 429 || apiError.status === 503) && apiError.details?.retry_after != null) {
    res.headers.set('Retry-After', String(apiError.details.retry_after));
  }
  return res;
}
