import { createStore, useStore } from './store';

/** The part of the URL after `#`, split into a path and its query: `#/packages/12?tab=history`. */
export interface Location {
  path: string;
  query: URLSearchParams;
}

function read(): Location {
  const raw = window.location.hash.replace(/^#/, '') || '/';
  const [path, search = ''] = raw.split('?', 2);
  return { path: path || '/', query: new URLSearchParams(search) };
}

export const location = createStore<Location>(read());
window.addEventListener('hashchange', () => location.set(read()));

export function useLocation(): Location {
  return useStore(location);
}

export function navigate(path: string, query?: Record<string, string | undefined>, replace = false): void {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v != null && v !== '') qs.set(k, v);
  const hash = `#${path}${qs.size ? `?${qs.toString()}` : ''}`;
  if (replace) {
    history.replaceState(history.state, '', hash);
    location.set(read());
  } else {
    window.location.hash = hash;
  }
}

/** Matches `/packages/:id` against `/packages/12` -> `{ id: '12' }`; null when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    const part = p[i]!;
    if (part.startsWith(':')) out[part.slice(1)] = decodeURIComponent(s[i]!);
    else if (part !== s[i]) return null;
  }
  return out;
}

export function href(path: string): string {
  return `#${path}`;
}
