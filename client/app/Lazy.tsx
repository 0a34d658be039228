import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorState, Loading } from '../ui/States';

export type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

// Modules a loader has already delivered: a screen started before the first render (preload) draws
// at once instead of after a "Loading" frame and an effect. Keyed by the (module-level) loader.
const loaded = new Map<Loader<never>, ComponentType<never>>();
const started = new Map<Loader<never>, Promise<unknown>>();

/**
 * Starts a screen's module (and whatever its loader waits for) before anything renders; the
 * promise settles when it is ready, so the caller can draw the first frame with it.
 */
export function preload<P>(load: Loader<P>): Promise<unknown> {
  const key = load as Loader<never>;
  let p = started.get(key);
  if (!p) {
    p = load().then((m) => {
      loaded.set(key, m.default as ComponentType<never>);
    });
    // A failed preload is retried by Lazy (and its error shown there), not cached.
    p.catch(() => started.delete(key));
    started.set(key, p);
  }
  return p;
}

/**
 * Renders a component from a module loaded on first use, so the admin, depot and driver bundles
 * are fetched only by whoever opens them. A failed load (offline before the chunk was cached) can be retried.
 */
export function Lazy<P extends object>({ load, props }: { load: Loader<P>; props: P }) {
  // The component is kept with the loader it came from: after a switch, the old screen must never
  // render with the new screen's props while the new code loads.
  const [current, setCurrent] = useState<{ load: Loader<P>; Comp: ComponentType<P> } | null>(() => {
    const Comp = loaded.get(load as Loader<never>) as ComponentType<P> | undefined;
    return Comp ? { load, Comp } : null;
  });
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    const ready = loaded.get(load as Loader<never>) as ComponentType<P> | undefined;
    if (ready) {
      setCurrent((c) => (c?.load === load ? c : { load, Comp: ready }));
      return;
    }
    load().then(
      (m) => {
        if (live) setCurrent({ load, Comp: m.default });
      },
      (err: unknown) => {
        if (live) setError(err);
      },
    );
    return () => {
      live = false;
    };
  }, [load, attempt]);
  if (error)
    return (
      <ErrorState
        error={new Error('This part of the app could not be loaded. Check the connection and try again.')}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  if (!current || current.load !== load) return <Loading />;
  const { Comp } = current;
  return <Comp {...props} />;
}
