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
    case 413: return new ApiError(413, 'payload_too_large', 'Request body is too large');
    case 415: return new ApiError(415, 'unsupported_media_type', err.message || 'Unsupported media type');
    case 401: return new ApiError(401, 'not_authenticated', err.message || 'Authentication required');
    case 404: return new ApiError(404, 'not_found', err.message || 'Not found');
    default: return new ApiError(400, 'validation_error', err.message || 'Bad request');
  }
}

/** The one place that turns anything thrown into the error body of DESIGN.md section 3. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException) return fromHttpException(err);
  if (err instanceof z.ZodError) return validationError(err, 'body');
  if (err instanceof SyntaxError) return new ApiError(400, 'validation_error', 'Malformed JSON in request body');
  return new ApiError(500, 'internal_error', 'Internal server error');
}

export function errorResponse(c: Context, err: unknown): Response {
  const apiError = toApiError(err);
  if (apiError.status === 500) console.error('[courier] unhandled error', c.req.method, c.req.path, err);
  const res = c.json(apiError.toBody(), apiError.status as ContentfulStatusCode);
  if (apiError.status === 429 && apiError.details?.retry_after != null) {
    res.headers.set('Retry-After', String(apiError.details.retry_after));
  }
  return res;
}
