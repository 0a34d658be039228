import { can } from '../../app/access';
import { Lazy } from '../../app/Lazy';
import { match } from '../../app/router';
import type { Session } from '../../app/session';
import { Empty } from '../../ui/States';

const loadList = () => import('./RouteList');
const loadNew = () => import('./RouteNew');
const loadDetail = () => import('./RouteDetail');
const loadPod = () => import('./RoutePod');
const loadMap = () => import('./DashboardMap');

function Nope({ title }: { title: string }) {
  return (
    <div class="card">
      <Empty title={title}>
        <a href="#/routes">Go to the routes</a>
      </Empty>
    </div>
  );
}

/** `#/routes…` and `#/map`: route planning and the live map (each screen its own chunk, Leaflet only when a map shows). */
export default function RoutesArea({ path, query, session }: { path: string; query: URLSearchParams; session: Session }) {
  const role = session.user.role;
  if (!can(role, 'route.view') || role === 'company') return <Nope title="Not available for your role" />;
  if (path === '/map') return <Lazy load={loadMap} props={{}} />;
  if (path === '/routes') return <Lazy load={loadList} props={{ session, query }} />;
  if (path === '/routes/new')
    return can(role, 'route.manage') ? <Lazy load={loadNew} props={{}} /> : <Nope title="Not available for your role" />;
  const pod = match('/routes/:id/pod', path);
  if (pod && /^\d+$/.test(pod.id ?? '')) return <Lazy load={loadPod} props={{ id: Number(pod.id) }} />;
  const one = match('/routes/:id', path);
  if (one && /^\d+$/.test(one.id ?? '')) return <Lazy key={one.id} load={loadDetail} props={{ id: Number(one.id), session }} />;
  return <Nope title="Page not found" />;
}
