import { createStore } from '../app/store';

export interface Toast {
  id: number;
  tone: 'ok' | 'bad' | 'info';
  text: string;
}

export const toasts = createStore<Toast[]>([]);
let next = 1;

export function toast(text: string, tone: Toast['tone'] = 'info', ms = tone === 'bad' ? 7000 : 3500): void {
  const item = { id: next++, tone, text };
  toasts.set([...toasts.get(), item].slice(-5));
  setTimeout(() => dismissToast(item.id), ms);
}

export function dismissToast(id: number): void {
  toasts.set(toasts.get().filter((t) => t.id !== id));
}
