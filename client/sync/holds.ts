import type { SyncDb } from './db';
import { addToOutbox, releaseHeld, undoHeld } from './outbox';
import type { Scheduler } from './scheduler';
import type { StatusBoard } from './status';
import type { ActionInput, OutboxRow } from './types';

/**
 * Undo windows: an action saved as held (durable at once, counted, not sent) and the timer that
 * releases it when its window closes. A page that dies meanwhile loses only the timer; the next
 * pass or start() releases what it left.
 */
export interface Holds {
  hold(action: ActionInput, userId: number, ms: number): Promise<OutboxRow>;
  /** Ends the window now for these rows, or for every held row. */
  release(which: { ids?: number[] }): Promise<void>;
  /** Takes a held row back (and its files); false once it was released. */
  undo(id: number): Promise<boolean>;
  /** Forgets every timer (the engine stopped; the rows stay held). */
  clear(): void;
}

export function createHolds(o: { db: SyncDb; now: () => number; status: StatusBoard; scheduler: Scheduler }): Holds {
  const { db, now, status, scheduler } = o;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const forget = (id: number) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
  };

  const release = async (which: { ids?: number[] }): Promise<void> => {
    const ids = await releaseHeld(db, which);
    ids.forEach(forget);
    if (!ids.length || scheduler.closed) return;
    await status.refreshCounts();
    if (scheduler.started) void scheduler.kick(false);
  };

  return {
    async hold(action, userId, ms) {
      const row = await addToOutbox(db, action, userId, now(), now() + ms);
      const id = row.id as number;
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id);
          void release({ ids: [id] }).catch(() => undefined);
        }, ms),
      );
      await status.refreshCounts();
      return row;
    },
    release,
    async undo(id) {
      forget(id);
      const ok = await undoHeld(db, id);
      await status.refreshCounts();
      return ok;
    },
    clear() {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}
