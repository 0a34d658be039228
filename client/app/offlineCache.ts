/**
 * A screen that is not in the service worker's precache (the depot's, kept out of the driver's
 * first load) caches its own files once it has loaded with signal, into the cache the service
 * worker serves build files from first (vite.config.ts, runtimeCaching). After that the screen
 * reloads offline: index.html and the entry come from the precache, the rest from here.
 */
export const ASSET_CACHE = 'courier-assets';

export type OfflineState = 'unsupported' | 'caching' | 'ready' | 'failed';

interface PrecacheList {
  files: string[];
}

const PREVIOUS = (list: string) => `courier.offline.${list}`;

async function fetchList(listUrl: string): Promise<string[] | null> {
  if (!navigator.onLine) return null;
  try {
    const res = await fetch(listUrl, { cache: 'no-cache' });
    return res.ok ? ((await res.json()) as PrecacheList).files : null;
  } catch {
    return null;
  }
}

/**
 * Adds the files named in `listUrl` (built by scripts/vitePlugins.ts screenPrecacheList) that the
 * cache lacks, and drops the files of the previous build's list that this one no longer names.
 * Without an answer (offline) it says whether the last list it cached is all still there.
 */
export async function keepOffline(listUrl: string): Promise<OfflineState> {
  if (!import.meta.env.PROD || typeof caches === 'undefined' || !('serviceWorker' in navigator)) return 'unsupported';
  try {
    const cache = await caches.open(ASSET_CACHE);
    const before = JSON.parse(localStorage.getItem(PREVIOUS(listUrl)) ?? '[]') as string[];
    const files = await fetchList(listUrl);
    if (!files) {
      const kept = await Promise.all(before.map((f) => cache.match(f)));
      return before.length > 0 && kept.every(Boolean) ? 'ready' : 'failed';
    }
    for (const file of files) {
      // One at a time: a tablet on depot Wi-Fi is in no hurry, and a failure stops at the file that failed.
      if (!(await cache.match(file))) await cache.add(file);
    }
    const now = new Set(files);
    await Promise.all(before.filter((f) => !now.has(f)).map((f) => cache.delete(f)));
    localStorage.setItem(PREVIOUS(listUrl), JSON.stringify(files));
    return 'ready';
  } catch {
    // A file that would not download, or storage refused: the screen works online and says it is not ready offline.
    return 'failed';
  }
}
