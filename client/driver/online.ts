import { engine } from './engine';

/** A call that needs signal (history, earnings, tickets, profile): it says so instead of queuing. */
export class OnlineError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'OnlineError';
  }
  get offline(): boolean {
    return this.status === 0;
  }
}

async function token(): Promise<string | null> {
  // The engine keeps the session in its meta store; reading it here avoids a second copy that could disagree.
  const row = await engine().db.meta.get('token');
  return typeof row?.value === 'string' ? row.value : null;
}

interface ErrorBody {
  message?: string;
  errors?: { path?: string; message?: string }[];
}

/** Reads and writes that only make sense online; actions of the delivery day go through the outbox instead. */
export async function online<T>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T> {
  // No signal: said at once, without a request that can only fail (and log an error) (issue 35).
  if (!navigator.onLine) throw new OnlineError('You are offline. This needs signal.', 0);
  const t = await token();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (t) headers.authorization = `Bearer ${t}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new OnlineError(
      navigator.onLine ? 'The server cannot be reached. Try again when you have signal.' : 'You are offline. This needs signal.',
      0,
    );
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!res.ok) {
    const b = (parsed ?? {}) as ErrorBody;
    const fields: Record<string, string> = {};
    for (const e of b.errors ?? []) if (e.path && e.message) fields[e.path.split('.')[0] ?? e.path] ??= e.message;
    if (res.status === 401) void engine().syncNow();
    throw new OnlineError(b.message ?? `The server answered ${res.status}`, res.status, fields);
  }
  return parsed as T;
}
