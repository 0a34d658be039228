import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { SessionInfo } from '../sync/index';
import { ErrorState, Loading } from '../ui/States';
import { readFirstRows } from '../sync/firstRead';
import { dayOnPhone, DB_NAME, LOCAL_KEYS } from './localKeys';
import { DriverLogin } from './Login';

interface Opened {
  me: SessionInfo | null;
  Workday: ComponentType<{ path: string; me: SessionInfo }>;
}

// The day (sync engine, IndexedDB, Today) is a chunk of its own: a phone that never had a driver's
// day draws the login without it, and loads it while the driver types.
let opened: Opened | null = null;
let opening: Promise<Opened> | null = null;

function openDay(): Promise<Opened> {
  if (opening) return opening;
  // A phone with a day on it reads it from IndexedDB while the day's code (Dexie with it) loads.
  const preread = dayOnPhone() ? readFirstRows(DB_NAME) : undefined;
  opening = import('./Workday').then(async (m) => {
    performance.mark('courier: day code loaded');
    opened = { me: await m.prepare(preread), Workday: m.default };
    performance.mark('courier: day read from the phone');
    return opened;
  });
  opening.catch(() => {
    opening = null;
  });
  return opening;
}

/**
 * Called before the app's first frame (app/App.tsx): a phone with a driver's day on it opens
 * straight onto Today, its parcels read from the phone, without a "Loading" frame in between.
 */
export function ready(): Promise<unknown> {
  return dayOnPhone() ? openDay().catch(() => undefined) : Promise.resolve();
}

/**
 * The driver app at `#/driver`: one engine for the whole day, a login once (kept in IndexedDB for
 * days offline), then the delivery screens.
 */
export default function DriverApp({ path }: { path: string }) {
  const [day, setDay] = useState<Opened | null>(opened);
  // undefined: not known yet (a day is on the phone and still being read).
  const [me, setMe] = useState<SessionInfo | null | undefined>(opened ? opened.me : dayOnPhone() ? undefined : null);
  const [failed, setFailed] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setFailed(null);
    openDay().then(
      (o) => {
        if (!live) return;
        setDay(o);
        // A login made meanwhile wins; a session found on the phone replaces the login screen.
        setMe((cur) => cur ?? o.me);
      },
      (err: unknown) => {
        if (!live) return;
        setFailed(err);
        setMe((cur) => (cur === undefined ? null : cur));
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  if (me === null) {
    return (
      <DriverLogin
        onDone={(user) => {
          localStorage.setItem(LOCAL_KEYS.used, '1');
          setMe(user);
        }}
      />
    );
  }
  if (failed && !day)
    return (
      <ErrorState
        error={new Error('This part of the app could not be loaded. Check the connection and try again.')}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  if (me === undefined || !day) return <Loading label="Opening your day…" />;
  const { Workday } = day;
  return <Workday path={path} me={me} />;
}
