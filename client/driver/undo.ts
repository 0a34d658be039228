import { createStore } from '../app/store';
import type { ActionInput } from '../sync/index';
import { toast } from '../ui/toast';
import { engine } from './engine';

export const UNDO_MS = 5000;

export interface Held { id: number; label: string; packageId: number | null; deadline: number }

/** Actions the driver may still take back; they reach the outbox when the window closes. */
export const held = createStore<Held[]>([]);
const actions = new Map<number, { action: ActionInput; timer: ReturnType<typeof setTimeout>; onUndo?: () => void }>();
let nextId = 1;

async function commit(id: number): Promise<void> {
  const entry = actions.get(id);
  if (!entry) return;
  clearTimeout(entry.timer);
  actions.delete(id);
  const item = held.get().find((h) => h.id === id);
  try {
    await engine().enqueue(entry.action);
  } catch (err) {
    // Not saved on the phone (storage full, private mode): say so loudly, never pretend.
    toast(`${item?.label ?? 'Action'} was NOT saved: ${err instanceof Error ? err.message : String(err)}`, 'bad', 15_000);
  } finally {
    held.set(held.get().filter((h) => h.id !== id));
  }
}

/** Holds an action for the undo window, then saves it in the outbox. */
export function hold(label: string, action: ActionInput, packageId: number | null, onUndo?: () => void, ms = UNDO_MS): number {
  const id = nextId++;
  actions.set(id, { action, timer: setTimeout(() => void commit(id), ms), onUndo });
  held.set([...held.get(), { id, label, packageId, deadline: Date.now() + ms }]);
  return id;
}

export function undo(id: number): boolean {
  const entry = actions.get(id);
  if (!entry) return false;
  clearTimeout(entry.timer);
  actions.delete(id);
  held.set(held.get().filter((h) => h.id !== id));
  entry.onUndo?.();
  return true;
}

/** Saves now: the driver said "done", or the page is going away and a held action must not be lost. */
export function commitNow(id: number): Promise<void> {
  return commit(id);
}

export function commitAll(): Promise<void> {
  return Promise.all([...actions.keys()].map((id) => commit(id))).then(() => undefined);
}

if (typeof document !== 'undefined') {
  // Closing the app, switching away or reloading ends the undo window early rather than dropping the action.
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') void commitAll(); });
  window.addEventListener('pagehide', () => void commitAll());
}
