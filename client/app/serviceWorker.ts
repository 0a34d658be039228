import { createStore } from './store';

/** Set when a new service worker is installed and waiting; calling it activates it and reloads. */
export const updateReady = createStore<(() => void) | null>(null);

/**
 * registerType is 'prompt' (vite.config.ts): a new version waits until the user agrees, so a depot
 * scan session or a half-filled form is never reloaded from under them.
 */
export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const { Workbox } = await import('workbox-window');
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    updateReady.set(() => {
      wb.addEventListener('controlling', () => window.location.reload());
      wb.messageSkipWaiting();
    });
  });
  try {
    await wb.register();
  } catch (err) {
    console.warn('service worker registration failed', err);
  }
}
