/**
 * The tracking page's only server calls: the public recipient endpoints, keyed by the link's token.
 * No session, no admin client: this bundle stays small and knows nothing else of the API.
 */
import type { RecipientView } from '../../shared/schemas/recipients';

export type { RecipientView };

export class TrackError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(token: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(
    `/api/public/track/${encodeURIComponent(token)}/${path}`,
    body === undefined
      ? { headers: { accept: 'application/json' } }
      : { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) },
  );
  const data = (await res.json().catch(() => null)) as { message?: string } | null;
  if (!res.ok) throw new TrackError(res.status, data?.message ?? `The server answered ${res.status}`);
  return data as T;
}

export const trackApi = {
  view: (token: string) => call<RecipientView>(token, ''),
  instructions: (token: string, instructions: string) => call<{ message: string }>(token, 'instructions/', { instructions }),
  reschedule: (token: string, date: string) => call<{ message: string }>(token, 'reschedule/', { date }),
  rate: (token: string, rating: number, comment: string) =>
    call<{ message: string }>(token, 'rating/', { rating, comment: comment || null }),
  choice: (token: string, body: { kind: string; note?: string | undefined; neighbour?: string }) =>
    call<{ message: string }>(token, 'choice/', body),
  optOut: (token: string) => call<{ message: string }>(token, 'opt-out/', {}),
};

/** `#<token>` opens the page, `#<token>/stop` the opt-out question. */
export function readHash(hash: string): { token: string | null; stop: boolean } {
  const m = /^#([A-Za-z0-9_-]{32})(\/stop)?$/.exec(hash);
  return m ? { token: m[1]!, stop: Boolean(m[2]) } : { token: null, stop: false };
}
