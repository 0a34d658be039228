import type { ApiErrorBody } from '../../shared/errors';
import type { Method } from './types';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface Transport {
  baseUrl: string;
  fetch: FetchLike;
  /** Requests are abandoned after this; a lost answer is retried under the same key. */
  timeoutMs: number;
}

/** How the sender must treat an answer (DESIGN.md section 6). */
export type Outcome =
  | { kind: 'ok'; status: number; body: unknown; replayed: boolean }
  /** A recorded business refusal: the row is kept as rejected and the queue moves on. */
  | { kind: 'rejected'; status: number; code: string; message: string; details?: Record<string, unknown> }
  /** The server lacks files the action names: upload them and send again. */
  | { kind: 'files_missing'; missing: (string | number)[] }
  | { kind: 'auth'; message: string }
  /** Network error, timeout, 429 or 5xx: back off and send the same row again. */
  | { kind: 'retry'; message: string; retryAfterMs: number | null; offline: boolean };

export function apiUrl(baseUrl: string, path: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL(path.replace(/^\/+/, ''), base).toString();
}

function isErrorBody(v: unknown): v is ApiErrorBody {
  return typeof v === 'object' && v !== null && 'message' in v && typeof (v as { message: unknown }).message === 'string';
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function request(
  t: Transport,
  method: Method | 'GET',
  path: string,
  headers: Record<string, string>,
  body?: BodyInit,
): Promise<Outcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), t.timeoutMs);
  let res: Response;
  let payload: unknown;
  try {
    res = await t.fetch(apiUrl(t.baseUrl, path), { method, headers, body, signal: controller.signal });
    payload = await readJson(res);
  } catch (err) {
    return {
      kind: 'retry',
      message: `No answer from the server (${err instanceof Error ? err.message : String(err)})`,
      retryAfterMs: null,
      offline: true,
    };
  } finally {
    clearTimeout(timer);
  }
  const message = isErrorBody(payload) ? payload.message : `HTTP ${res.status}`;
  if (res.ok) return { kind: 'ok', status: res.status, body: payload, replayed: res.headers.get('idempotent-replayed') === 'true' };
  if (res.status === 401) return { kind: 'auth', message };
  if (res.status === 429 || res.status >= 500) {
    const after = Number(res.headers.get('retry-after'));
    return { kind: 'retry', message, retryAfterMs: Number.isFinite(after) && after > 0 ? after * 1000 : null, offline: false };
  }
  const missing = isErrorBody(payload) ? payload.details?.missing_files : undefined;
  if (res.status === 409 && Array.isArray(missing)) return { kind: 'files_missing', missing: missing as (string | number)[] };
  const details = isErrorBody(payload) && payload.details ? payload.details : undefined;
  return {
    kind: 'rejected',
    status: res.status,
    code: isErrorBody(payload) ? payload.code : 'error',
    message,
    ...(details ? { details } : {}),
  };
}
