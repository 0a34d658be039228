import { getMeta, META, setMeta, type SyncDb } from './db';
import { request, type Transport } from './http';
import { newId } from './outbox';
import { forgetCopies } from './puller';
import type { SessionInfo } from './types';

/** A logged-in session on this device: the token requests carry and whose it is. */
export interface Session {
  token: string;
  user: SessionInfo;
}

/** Who works on this device and under which id it talks to the server, kept in the `meta` store. */
export interface SessionStore {
  /** This device's id, made on first use and kept forever. */
  deviceId(): Promise<string>;
  /** The session requests go with; null when logged out. */
  current(): Promise<Session | null>;
  /** The last user to log in, still known after logout: their copies and queue stay on the phone. */
  lastUser(): Promise<SessionInfo | null>;
  /** Keeps a session obtained by login() or elsewhere (web login screen). */
  store(token: string, user: SessionInfo): Promise<void>;
  /** Asks the server for a session; throws with the server's message when refused. */
  login(email: string, password: string): Promise<Session>;
  /** Ends the session on the server (best effort) and forgets the token, not the user. */
  logout(): Promise<void>;
}

export function createSessionStore(db: SyncDb, transport: Transport): SessionStore {
  // Read (or made) on first use, not at creation: creating the engine must not open the database, so a
  // warm start's first frame, drawn from rows read without Dexie (firstRead.ts), does not wait for it.
  let deviceIdRead: Promise<string> | null = null;
  const deviceId = () =>
    (deviceIdRead ??= db.transaction('rw', db.meta, async () => {
      const existing = await getMeta<string>(db, META.deviceId);
      if (existing) return existing;
      const id = newId();
      await setMeta(db, META.deviceId, id);
      return id;
    }));

  const current = async (): Promise<Session | null> => {
    const [token, user] = await Promise.all([getMeta<string>(db, META.token), getMeta<SessionInfo>(db, META.user)]);
    return token && user ? { token, user } : null;
  };

  return {
    deviceId,
    current,
    async lastUser() {
      return (await getMeta<SessionInfo>(db, META.user)) ?? null;
    },
    async store(token, user) {
      const previous = await getMeta<SessionInfo>(db, META.user);
      // Another person's copies never show on this phone; their queued actions stay, unsendable until they log in.
      if (previous && previous.id !== user.id) await forgetCopies(db);
      await db.transaction('rw', db.meta, async () => {
        await setMeta(db, META.token, token);
        await setMeta(db, META.user, user);
      });
    },
    async login(email, password) {
      // The device id names this phone's session, so an admin can sign out this phone alone.
      const outcome = await request(
        transport,
        'POST',
        'auth/login/',
        { 'content-type': 'application/json', 'x-device-id': await deviceId() },
        JSON.stringify({ email, password }),
      );
      if (outcome.kind !== 'ok') throw new Error('message' in outcome ? outcome.message : 'Login failed');
      return outcome.body as Session;
    },
    async logout() {
      const session = await current();
      if (session) {
        // Best effort: offline, the token simply expires on the server.
        await request(transport, 'POST', 'auth/logout/', { authorization: `Bearer ${session.token}` }).catch(() => undefined);
      }
      await db.meta.delete(META.token);
    },
  };
}
