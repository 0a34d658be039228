import { createStore } from '../app/store';
import type { ActionInput } from '../sync/index';
import { toast } from '../ui/toast';
import { engine } from './engine';

export const UNDO_MS = 5000;

/** `id` is the held outbox row: the action is on the phone (IndexedDB) from the moment the driver confirms. */
export interface Held {
  id: number;
  label: string;
  packageId: number | null;
  deadline: number;
}

/** Actions the driver may still take back; the engine sends them when the window closes. */
export const held = createStore<Held[]>([]);
const undoers = new Map<number, { timer: ReturnType<typeof setTimeout>; onUndo?: () => void }>();

function forget(id: number): void {
  const entry = undoers.get(id);
  if (entry) clearTimeout(entry.timer);
  undoers.delete(id);
  held.set(held.get().filter((h) => h.id !== id));
}

/**
 * Saves the action on the phone as held for the undo window (throws when the phone cannot save it:
 * the caller must say so and not pretend), then shows the Undo bar until the window closes.
 */
export async function hold(
  label: string,
  action: ActionInput,
  packageId: number | null,
  onUndo?: () => void,
  ms = UNDO_MS,
): Promise<number> {
  const row = await engine().hold(action, ms);
  const id = row.id as number;
  undoers.set(id, { timer: setTimeout(() => forget(id), ms), onUndo });
  held.set([...held.get(), { id, label, packageId, deadline: Date.now() + ms }]);
  return id;
}

export async function undo(id: number): Promise<boolean> {
  const entry = undoers.get(id);
  forget(id);
  const ok = await engine().undo(id);
  if (ok) entry?.onUndo?.();
  else toast('Too late to undo: it was already sent on its way. Tell the office if it was wrong.', 'bad');
  return ok;
}

/** Ends the window now: the driver said "OK", or the page is going away. */
export async function commitNow(id: number): Promise<void> {
  forget(id);
  await engine().release(id);
}

export async function commitAll(): Promise<void> {
  for (const h of held.get()) forget(h.id);
  await engine().release();
}

if (typeof document !== 'undefined') {
  // Closing the app, switching away or reloading ends the undo window early. Nothing is lost if the
  // page dies without these: the held row is in IndexedDB and the next start releases it.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void commitAll();
  });
  window.addEventListener('pagehide', () => void commitAll());
}
