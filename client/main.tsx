import { render } from 'preact';
import { App, preloadFirstScreen } from './app/App';
import { registerServiceWorker } from './app/serviceWorker';
import './ui/styles.css';

/** However long the first screen's preparation takes, the app draws by then (its screens show their own loading). */
const FIRST_FRAME_WAIT_MS = 1500;

// Marks of the start's stages, printed by bench/firstLoad.ts with BENCH_DEBUG=1.
performance.mark('courier: entry evaluated');
void Promise.race([preloadFirstScreen().catch(() => undefined), new Promise((r) => setTimeout(r, FIRST_FRAME_WAIT_MS))]).then(() => {
  performance.mark('courier: first render');
  render(<App />, document.getElementById('app') as HTMLElement);
  // The service worker (and its precache downloads) must not compete with the first screen.
  const later = () => setTimeout(() => void registerServiceWorker(), 0);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
});
