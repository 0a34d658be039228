import { isApiErrorBody, type ErrorDetail } from '../../shared/errors';
import { getToken, signOut } from '../app/session';

/** Every failed call becomes one of these, whether the server, the network or the body was at fault. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: ErrorDetail[];
  readonly details: Record<string, unknown> | undefined;
  constructor(status: number, code: string, message: string, errors: ErrorDetail[] = [], details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.details = details;
  }
  /** No answer at all: offline, DNS, server down. Callers show "offline", not "rejected". */
  get isNetwork(): boolean {
    return this.status === 0;
  }
}

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly (string | number)[]>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** `/api/` + path, with a query string that drops empty values (the server treats '' as "no filter" anyway). */
export function apiUrl(path: string, query?: Query): string {
  const url = new URL(`/api/${path.replace(/^\/+/, '')}`, window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value == null || value === '') continue;
    url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return url.pathname + url.search;
}

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** Turns any non-2xx answer into an ApiError; a 401 also ends the local session (the token is dead). */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON: a proxy page or an empty body */
  }
  if (res.status === 401 && getToken()) signOut('expired');
  if (isApiErrorBody(body)) return new ApiError(res.status, body.code, body.message, body.errors ?? [], body.details);
  return new ApiError(res.status, 'http_error', `The server answered ${res.status} ${res.statusText}`.trim());
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(), ...options.headers };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  // No signal: the same answer as a failed request, without the request and its console error (issue 35).
  if (!navigator.onLine) throw new ApiError(0, 'network_error', 'You are offline');
  let res: Response;
  try {
    res = await fetch(apiUrl(path, options.query), { method, headers, body, signal: options.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', navigator.onLine ? 'The server cannot be reached' : 'You are offline');
  }
  if (!res.ok) throw await errorFromResponse(res);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body }),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, { body }),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, { body }),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** Field errors keyed by their top-level field, for forms. */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (err instanceof ApiError) {
    for (const e of err.errors) {
      const key = String(e.path ?? '').split('.')[0] || '_';
      out[key] ??= e.message;
    }
  }
  return out;
}

/** A form's errors from a failed call: per field where the server named fields, else one message under `_`. */
export function formErrors(err: unknown): Record<string, string> {
  const fe = fieldErrors(err);
  return Object.keys(fe).length ? fe : { _: errorMessage(err) };
}

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
