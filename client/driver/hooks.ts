import { useEffect, useRef, useState } from 'preact/hooks';
import type { FailedStatus, FirstRows, OutboxRow, SessionInfo, SyncStatus, ViewPackage } from '../sync/index';
import { engine } from './engine';

// Reads made before the first frame (prime), each handed to the first screen that asks, once: later
// screens read afresh. Only a logged-in phone's reads are kept (see primeDeviceReads).
const primed = new Map<string, unknown>();

function takePrimed<T>(key: string): T | undefined {
  const v = primed.get(key) as T | undefined;
  primed.delete(key);
  return v;
}

/**
 * Reads what Today and the top bar show, so the first frame of a warm start is the real one; from
 * `preread` when the rows were read before the engine loaded (client/driver/index.tsx).
 */
export async function primeDeviceReads(preread?: Promise<FirstRows | null>): Promise<SessionInfo | null> {
  // Awaited before the engine exists: creating it opens the database with Dexie, whose work on the
  // page's thread would otherwise run ahead of these rows' last steps.
  const rows = preread ? await preread : null;
  const { user, view: packages, outbox } = await engine().firstView(rows);
  if (user) {
    primed.set('packages', packages);
    primed.set('outbox', outbox);
  }
  return user;
}

export function useSyncStatus(): SyncStatus {
  const [status, setStatus] = useState<SyncStatus>(() => engine().status());
  useEffect(() => engine().subscribe(setStatus), []);
  return status;
}

/**
 * Re-reads something from the device whenever the engine reports a change (an enqueue, an answer,
 * a pull); bursts of reports cost one read.
 */
function useDeviceRead<T>(read: () => Promise<T>, initial: T, primedKey?: string): [T, () => void, boolean] {
  const [first] = useState(() => (primedKey ? takePrimed<T>(primedKey) : undefined));
  const [value, setValue] = useState<T>(first ?? initial);
  const [loaded, setLoaded] = useState(first !== undefined);
  const reader = useRef(read);
  reader.current = read;
  const refresh = useRef<() => void>(() => undefined);
  useEffect(() => {
    let live = true;
    let busy = false;
    let again = false;
    const run = async () => {
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      try {
        do {
          again = false;
          const next = await reader.current();
          if (live) {
            setValue(next);
            setLoaded(true);
          }
        } while (again && live);
      } catch {
        /* the database is closing (logout): nothing to show */
      } finally {
        busy = false;
      }
    };
    refresh.current = () => void run();
    let last = '';
    const unsub = engine().subscribe((s) => {
      // Only changes that can move data; the online flag alone does not.
      const key = `${s.queued}/${s.sending}/${s.rejected}/${s.syncing}/${s.lastSyncedAt ?? 0}`;
      if (key !== last) {
        last = key;
        void run();
      }
    });
    return () => {
      live = false;
      unsub();
    };
  }, []);
  return [value, () => refresh.current(), loaded];
}

export function usePackages(): { packages: ViewPackage[]; refresh: () => void; loaded: boolean } {
  const [packages, refresh, loaded] = useDeviceRead(() => engine().pendingView(), [] as ViewPackage[], 'packages');
  return { packages, refresh, loaded };
}

export function useFailedStatuses(): FailedStatus[] {
  return useDeviceRead(() => engine().failedStatuses(), [] as FailedStatus[])[0].filter((s) => s.is_active);
}

export function useOutbox(): [OutboxRow[], () => void] {
  const [rows, refresh] = useDeviceRead(() => engine().outbox(), [] as OutboxRow[], 'outbox');
  return [rows, refresh];
}
