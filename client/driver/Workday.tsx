import { useEffect } from 'preact/hooks';
import { match } from '../app/router';
import { Lazy } from '../app/Lazy';
import type { FirstRows, SessionInfo } from '../sync/index';
import { engine } from './engine';
import { Frame } from './Frame';
import { primeDeviceReads } from './hooks';
import { PositionReports } from './PositionReports';
import { refreshRoutes } from './routeCache';
import { Today } from './Today';
import './driver.css';

// Screens used less often load on first visit (the service worker has them precached for offline use).
const loadScan = () => import('./Scan');
const loadPickups = () => import('./Pickups');
const loadStop = () => import('./Stop');
const loadDeliver = () => import('./Deliver');
const loadFail = () => import('./Fail');
const loadCollectFail = () => import('./CollectFail');
const loadSync = () => import('./SyncScreen');
const loadMore = () => import('./More');
const loadHistory = () => import('./History');
const loadHistoryDetail = () => import('./HistoryDetail');
const loadEarnings = () => import('./Earnings');
const loadCash = () => import('./Cash');
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
  if (sub === '/pickups') return <Lazy key="pickups" load={loadPickups} props={{}} />;
  if (sub === '/sync') return <Lazy key="sync" load={loadSync} props={{}} />;
  if (sub === '/more') return <Lazy key="more" load={loadMore} props={{ me }} />;
  if (sub === '/history') return <Lazy key="history" load={loadHistory} props={{}} />;
  if (sub === '/earnings') return <Lazy key="earnings" load={loadEarnings} props={{}} />;
  if (sub === '/cash') return <Lazy key="cash" load={loadCash} props={{}} />;
  if (sub === '/support') return <Lazy key="support" load={loadSupport} props={{}} />;
  if (sub === '/profile') return <Lazy key="profile" load={loadProfile} props={{ me }} />;
  const stop = id('/stop/:id');
  if (stop != null) return <Lazy key="stop" load={loadStop} props={{ id: stop }} />;
  const deliver = id('/deliver/:id');
  if (deliver != null) return <Lazy key={`deliver-${deliver}`} load={loadDeliver} props={{ id: deliver }} />;
  const fail = id('/fail/:id');
  if (fail != null) return <Lazy key={`fail-${fail}`} load={loadFail} props={{ id: fail }} />;
  const notCollected = id('/collect-fail/:id');
  if (notCollected != null) return <Lazy key={`collect-fail-${notCollected}`} load={loadCollectFail} props={{ id: notCollected, me }} />;
  const hist = id('/history/:id');
  if (hist != null) return <Lazy key="historydetail" load={loadHistoryDetail} props={{ id: hist }} />;
  return <Today me={me} />;
}

/**
 * What the first frame of the day needs, read from the phone in one go: who is logged in, the
 * parcels, the outbox and the counts. Nothing here waits for the network.
 */
export function prepare(preread?: Promise<FirstRows | null>): Promise<SessionInfo | null> {
  return primeDeviceReads(preread);
}

/**
 * The logged-in driver's day: the delivery screens in a phone frame with the sync state always in
 * view. Sending and fetching start once the first frame is on the screen.
 */
export default function Workday({ path, me }: { path: string; me: SessionInfo }) {
  useEffect(() => {
    void engine().start().then(refreshRoutes);
  }, []);
  return (
    <Frame path={path} me={me}>
      <PositionReports />
      <Screen path={path} me={me} />
    </Frame>
  );
}
