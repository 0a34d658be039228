import { useEffect, useState } from 'preact/hooks';
import { online, OnlineError } from './online';

/** A GET that needs signal, with a retry for when it comes back. */
export function useOnline<T>(path: string): { data: T | null; error: OnlineError | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<OnlineError | null>(null);
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    online<T>('GET', path).then(
      (d) => {
        if (live) setData(d);
      },
      (e: unknown) => {
        if (live) setError(e instanceof OnlineError ? e : new OnlineError(String(e), -1));
      },
    );
    return () => {
      live = false;
    };
  }, [path, n]);
  return { data, error, reload: () => setN((x) => x + 1) };
}
