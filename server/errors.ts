import type { ApiErrorBody, ErrorCode, ErrorDetail } from '../shared/errors';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

/** The one error type: services throw it, the one error handler shapes it. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: ErrorCode,
    message: string,
    readonly errors: ErrorDetail[] = [],
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /**
   * A side effect that must outlive the rolled-back transaction of a rejected action (a refused
   * scan is still recorded). The route layer runs it in the transaction that stores the rejection.
   */
  record?: () => void | Promise<void>;

  withRecord(fn: () => void): this {
    this.record = fn;
    return this;
  }

  /**
   * A refusal the client cures and then repeats with the same Idempotency-Key (a file not uploaded
   * yet): it is not stored as that key's answer, so the retry is processed afresh.
   */
  retryable = false;

  retry(): this {
    this.retryable = true;
    return this;
  }

  toBody(): ApiErrorBody {
    const body: ApiErrorBody = { success: false, message: this.message, code: this.code, errors: this.errors };
    if (this.details) body.details = this.details;
    return body;
  }
}

export const badRequest = (message: string, errors: ErrorDetail[] = []) => new ApiError(400, 'validation_error', message, errors);
export const notFound = (what = 'Not found') => new ApiError(404, 'not_found', what);
export const forbidden = (message = 'You do not have permission to do this') => new ApiError(403, 'forbidden', message);
export const unauthenticated = (message = 'Authentication required') => new ApiError(401, 'not_authenticated', message);
export const conflict = (message: string, details?: Record<string, unknown>) => new ApiError(409, 'conflict', message, [], details);
export const invalidTransition = (message: string, details?: Record<string, unknown>) =>
  new ApiError(409, 'invalid_transition', message, [], details);
