import { useEffect, useState } from 'preact/hooks';
import { match } from '../app/router';
import { Lazy } from '../app/Lazy';
import type { SessionInfo } from '../sync/index';
import { Loading } from '../ui/States';
import { engine, LOCAL_KEYS } from './engine';
import { Frame } from './Frame';
import { DriverLogin } from './Login';
import { refreshRoutes } from './routeCache';
import { Today } from './Today';
import './driver.css';

// Screens used less often load on first visit (the service worker has them precached for offline use).
const loadScan = () => import('./Scan');
const loadStop = () => import('./Stop');
const loadDeliver = () => import('./Deliver');
const loadFail = () => import('./Fail');
const loadSync = () => import('./SyncScreen');
const loadMore = () => import('./More');
const loadHistory = () => import('./History');
const loadHistoryDetail = () => import('./HistoryDetail');
const loadEarnings = () => import('./Earnings');
const loadSupport = () => import('./Support');
const loadProfile = () => import('./Profile');

/**
 * Each screen's Lazy has its own key: without it Preact would reuse one Lazy and render the previous
 * screen's component with the next screen's props until the new chunk arrives.
 */
function Screen({ path, me }: { path: string; me: SessionInfo }) {
  const sub = path.replace(/^\/driver\/?/, '/');
  const id = (pattern: string) => {
    const m = match(pattern, sub);
    return m ? Number(m.id) : null;
  };
  if (sub === '/' || sub === '') return <Today me={me} />;
  if (sub === '/scan') return <Lazy key="scan" load={loadScan} props={{}} />;
  if (sub === '/sync') return <Lazy key="sync" load={loadSync} props={{}} />;
  if (sub === '/more') return <Lazy key="more" load={loadMore} props={{ me }} />;
  if (sub === '/history') return <Lazy key="history" load={loadHistory} props={{}} />;
  if (sub === '/earnings') return <Lazy key="earnings" load={loadEarnings} props={{}} />;
  if (sub === '/support') return <Lazy key="support" load={loadSupport} props={{}} />;
  if (sub === '/profile') return <Lazy key="profile" load={loadProfile} props={{ me }} />;
  const stop = id('/stop/:id');
  if (stop != null) return <Lazy key="stop" load={loadStop} props={{ id: stop }} />;
  const deliver = id('/deliver/:id');
  if (deliver != null) return <Lazy key={`deliver-${deliver}`} load={loadDeliver} props={{ id: deliver }} />;
  const fail = id('/fail/:id');
  if (fail != null) return <Lazy key={`fail-${fail}`} load={loadFail} props={{ id: fail }} />;
  const hist = id('/history/:id');
  if (hist != null) return <Lazy key="historydetail" load={loadHistoryDetail} props={{ id: hist }} />;
  return <Today me={me} />;
}

/**
 * The driver app at `#/driver`: one engine for the whole day, a login once (kept in IndexedDB for
 * days offline), then the delivery screens in a phone frame with the sync state always in view.
 */
export default function DriverApp({ path }: { path: string }) {
  const [me, setMe] = useState<SessionInfo | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    const e = engine();
    void e.session().then((s) => {
      if (!live) return;
      setMe(s);
      if (s) void e.start().then(refreshRoutes);
    }, () => { if (live) setMe(null); });
    return () => { live = false; };
  }, []);

  if (me === undefined) return <Loading label="Opening your day…" />;
  if (me === null) {
    return (
      <DriverLogin onDone={(user) => {
        localStorage.setItem(LOCAL_KEYS.used, '1');
        setMe(user);
        void engine().start().then(refreshRoutes);
      }} />
    );
  }
  return (
    <Frame path={path} me={me}>
      <Screen path={path} me={me} />
    </Frame>
  );
}
