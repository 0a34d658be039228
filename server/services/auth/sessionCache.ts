import type { Db } from '../../db/client';
import type { ChangeStamp } from '../../db/engine/types';
import { prepared } from '../../db/prepared';

/**
 * What a session read found, less what depends on the hour: the caller checks expiry and idleness
 * against the clock on every use, from the times kept here.
 */
export interface KnownSession<S> {
  session: S;
  expiresAt: number;
  /** The token's last recorded use, moved forward when a request records a use (session.ts). */
  lastUsed: number;
}

/** The read itself is kept (not a copy): a recorded use moves its `lastUsed` in place. */
interface Entry<S> {
  known: KnownSession<S>;
  stamp: string;
}

/**
 * Valid sessions by token hash, kept while nothing they were read from changed. Every request reads
 * its session, and that read was a sixth of an inbound scan's CPU (docs/operations.md); a kept
 * session costs a hash and a map lookup instead. The engine says when to drop them: its stamp
 * (engine `watch`) moves on any write to the watched tables, from this process or another, and on
 * a group commit that failed after a read may have seen its rows; an entry read at another stamp is
 * read again. The stamp is moved by the same durable write that changes a session (engine/sqliteWatch.ts),
 * never by something that can vanish on its own; while the engine cannot vouch for it (null), nothing
 * is kept or used. Where the engine gives no stamp at all (PostgreSQL), nothing is kept.
 *
 * Only tokens that worked are kept, so unknown tokens cannot fill it; it holds at most `capacity`,
 * dropping the oldest first.
 */
export interface SessionCache<S> {
  get(hash: string): KnownSession<S> | undefined;
  /** `stamp` is `stamp()` taken before the read, so a change during the read drops the entry; null keeps nothing. */
  set(hash: string, known: KnownSession<S>, stamp: string | null): void;
  stamp(): string | null;
}

export function sessionCache<S>(watch: ChangeStamp, capacity = 20_000): SessionCache<S> {
  const entries = new Map<string, Entry<S>>();
  return {
    get(hash) {
      const entry = entries.get(hash);
      if (!entry) return undefined;
      const now = watch();
      if (now !== null && entry.stamp === now) return entry.known;
      entries.delete(hash);
      return undefined;
    },
    set(hash, known, stamp) {
      if (stamp === null) return;
      if (entries.size >= capacity && !entries.has(hash)) entries.delete(entries.keys().next().value as string);
      entries.set(hash, { known, stamp });
    },
    stamp: watch,
  };
}

/** Tables whose rows the session query reads (session.ts): any change to them may change a session. */
const SESSION_TABLES = [
  // Recording a use moves last_used_at only, once a minute per session: that alone changes no session.
  { name: 'auth_token', ignore: ['last_used_at'] },
  { name: 'user' },
  { name: 'company' },
  { name: 'permission_group' },
  { name: 'user_permission_group' },
] as const;

/** The database's session cache, or null where its engine gives no change stamp. */
export function sessionCacheOf<S>(db: Db): SessionCache<S> | null {
  return prepared(db, 'session.cache', () => {
    const watch = db.$engine.watch(SESSION_TABLES);
    return watch ? sessionCache<S>(watch) : null;
  }) as SessionCache<S> | null;
}
