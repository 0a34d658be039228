import { useEffect, useRef, useState } from 'preact/hooks';
import type { FailedStatus, OutboxRow, SyncStatus, ViewPackage } from '../sync/index';
import { engine } from './engine';

export function useSyncStatus(): SyncStatus {
  const [status, setStatus] = useState<SyncStatus>(() => engine().status());
  useEffect(() => engine().subscribe(setStatus), []);
  return status;
}

/**
 * Re-reads something from the device whenever the engine reports a change (an enqueue, an answer,
 * a pull); bursts of reports cost one read.
 */
function useDeviceRead<T>(read: () => Promise<T>, initial: T): [T, () => void, boolean] {
  const [value, setValue] = useState<T>(initial);
  const [loaded, setLoaded] = useState(false);
  const reader = useRef(read);
  reader.current = read;
  const refresh = useRef<() => void>(() => undefined);
  useEffect(() => {
    let live = true;
    let busy = false;
    let again = false;
    const run = async () => {
      if (busy) { again = true; return; }
      busy = true;
      try {
        do {
          again = false;
          const next = await reader.current();
          if (live) { setValue(next); setLoaded(true); }
        } while (again && live);
      } catch { /* the database is closing (logout): nothing to show */ } finally { busy = false; }
    };
    refresh.current = () => void run();
    let last = '';
    const unsub = engine().subscribe((s) => {
      // Only changes that can move data; the online flag alone does not.
      const key = `${s.queued}/${s.sending}/${s.rejected}/${s.syncing}/${s.lastSyncedAt ?? 0}`;
      if (key !== last) { last = key; void run(); }
    });
    return () => { live = false; unsub(); };
  }, []);
  return [value, () => refresh.current(), loaded];
}

export function usePackages(): { packages: ViewPackage[]; refresh: () => void; loaded: boolean } {
  const [packages, refresh, loaded] = useDeviceRead(() => engine().pendingView(), [] as ViewPackage[]);
  return { packages, refresh, loaded };
}

export function useFailedStatuses(): FailedStatus[] {
  return useDeviceRead(() => engine().failedStatuses(), [] as FailedStatus[])[0].filter((s) => s.is_active);
}

export function useOutbox(): [OutboxRow[], () => void] {
  const [rows, refresh] = useDeviceRead(() => engine().outbox(), [] as OutboxRow[]);
  return [rows, refresh];
}
