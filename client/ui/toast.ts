import { createStore } from '../app/store';

export interface Toast {
  id: number;
  tone: 'ok' | 'bad' | 'info';
  text: string;
  /** How many times the same words were told while this toast showed ("Saved ×3"). */
  times: number;
}

export const toasts = createStore<Toast[]>([]);
let next = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

/**
 * Tells something in a toast. A success or a note replaces the one before it, so setting up a
 * courier in twenty quick saves shows one toast, not a pile; a problem stays until read or timed out.
 * The same words again count on the toast already showing instead of adding another.
 */
export function toast(text: string, tone: Toast['tone'] = 'info', ms = tone === 'bad' ? 7000 : 3500): void {
  const list = toasts.get();
  const same = list.find((t) => t.text === text && t.tone === tone);
  const item: Toast = same ? { ...same, times: same.times + 1 } : { id: next++, tone, text, times: 1 };
  const kept = list.filter((t) => t.id !== item.id && (tone === 'bad' || t.tone === 'bad'));
  for (const t of list)
    if (!kept.includes(t) && t.id !== item.id) {
      clearTimeout(timers.get(t.id));
      timers.delete(t.id);
    }
  toasts.set([...kept, item].slice(-5));
  clearTimeout(timers.get(item.id));
  timers.set(
    item.id,
    setTimeout(() => dismissToast(item.id), ms),
  );
}

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  toasts.set(toasts.get().filter((t) => t.id !== id));
}
