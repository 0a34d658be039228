import type { AuthUser } from '../../shared/schemas/auth';
import { createStore } from './store';

export type { AuthUser };

export interface Session {
  token: string;
  user: AuthUser;
  expiresAt: string;
}

const KEY = 'courier.session';

function load(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Session;
    if (typeof s.token !== 'string' || !s.user || typeof s.user.role !== 'string') return null;
    if (s.expiresAt && Date.parse(s.expiresAt) < Date.now()) return null;
    return s;
  } catch {
    return null;
  }
}

export const session = createStore<Session | null>(load());
/** Why the last session ended, for the login screen to explain itself. */
export const signOutReason = createStore<'expired' | 'logout' | null>(null);

export function getToken(): string | null {
  return session.get()?.token ?? null;
}

export function signIn(next: Session): void {
  localStorage.setItem(KEY, JSON.stringify(next));
  signOutReason.set(null);
  session.set(next);
}

/** The token this device last ended by logging out: never taken back from the outbox (recoverSession.ts). */
const ENDED = 'courier.session.ended';
export function endedToken(): string | null {
  try {
    return localStorage.getItem(ENDED);
  } catch {
    return null;
  }
}

export function signOut(reason: 'expired' | 'logout'): void {
  const ending = session.get()?.token;
  if (reason === 'logout' && ending) localStorage.setItem(ENDED, ending);
  localStorage.removeItem(KEY);
  signOutReason.set(reason);
  session.set(null);
}

// Another tab logging in or out changes this one too: two tabs with two users would mix data.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === KEY) session.set(load());
  });
}
