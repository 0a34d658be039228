import { createStore } from './store';

/** navigator.onLine is only a hint (a captive Wi-Fi says "online"), but it is the hint users expect to see. */
export const online = createStore<boolean>(typeof navigator === 'undefined' ? true : navigator.onLine);
if (typeof window !== 'undefined') {
  window.addEventListener('online', () => online.set(true));
  window.addEventListener('offline', () => online.set(false));
}
