/** The one error body of the API (DESIGN.md section 3), shared so clients can read it without guessing. */
export const ERROR_CODES = [
  'validation_error',
  'not_authenticated',
  'forbidden',
  'not_found',
  'conflict',
  'invalid_transition',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'idempotency_mismatch',
  'internal_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface ApiErrorBody {
  success: false;
  message: string;
  code: ErrorCode;
  errors: ErrorDetail[];
  /** Extra facts a client can act on, e.g. the current state of a package after a 409. */
  details?: Record<string, unknown>;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.success === false && typeof v.message === 'string' && typeof v.code === 'string';
}
