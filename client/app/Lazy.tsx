import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorState, Loading } from '../ui/States';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * Renders a component from a module loaded on first use, so the admin, depot and driver bundles
 * are fetched only by whoever opens them. A failed load (offline before the chunk was cached) can be retried.
 */
export function Lazy<P extends object>({ load, props }: { load: Loader<P>; props: P }) {
  // The component is kept with the loader it came from: after a switch, the old screen must never
  // render with the new screen's props while the new code loads.
  const [loaded, setLoaded] = useState<{ load: Loader<P>; Comp: ComponentType<P> } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then((m) => { if (live) setLoaded({ load, Comp: m.default }); }, (err: unknown) => { if (live) setError(err); });
    return () => { live = false; };
  }, [load, attempt]);
  if (error) return <ErrorState error={new Error('This part of the app could not be loaded. Check the connection and try again.')} onRetry={() => setAttempt((n) => n + 1)} />;
  if (!loaded || loaded.load !== load) return <Loading />;
  const { Comp } = loaded;
  return <Comp {...props} />;
}
