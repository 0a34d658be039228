import { can } from '../app/access';
import { Lazy } from '../app/Lazy';
import { match } from '../app/router';
import type { Session } from '../app/session';
import { Empty } from '../ui/States';
import Dashboard from './Dashboard';
import { resourceByName } from './resource/declarations';
import { ResourceScreen } from './resource/ResourceScreen';
import { businessRoute } from './money/business';
import { isAdmin } from '../../shared/roles';

const loadPackageList = () => import('./packages/PackageList');
const loadPackageUpload = () => import('./packages/PackageUpload');
const loadPackageDetail = () => import('./packages/PackageDetail');
const loadLocationReview = () => import('./packages/LocationReview');
const loadRoutes = () => import('./routes/index');
const loadOrg = () => import('./org/index');
const loadDispatch = () => import('./dispatch/Board');
const loadBusinessProfile = () => import('./settings/BusinessProfile');
const loadFleet = () => import('./fleet/index');
const loadCod = () => import('./cod/index');

function NotAllowed() {
  return (
    <div class="card">
      <Empty title="Not available for your role">Ask an administrator if you need this screen.</Empty>
    </div>
  );
}

/** The admin area's routes (the shell around them is in app/Shell.tsx). */
export default function Admin({ path, query, session }: { path: string; query: URLSearchParams; session: Session }) {
  const role = session.user.role;
  if (path === '/' || path === '/dashboard') return <Dashboard session={session} />;
  if (path === '/packages')
    return can(role, 'package.view') ? <Lazy key={query.toString()} load={loadPackageList} props={{ session, query }} /> : <NotAllowed />;
  if (path === '/packages/upload')
    return can(role, 'package.manage') ? <Lazy load={loadPackageUpload} props={{ session }} /> : <NotAllowed />;
  if (path === '/packages/review')
    return can(role, 'package.view') ? <Lazy key={query.toString()} load={loadLocationReview} props={{ query }} /> : <NotAllowed />;
  const pkg = match('/packages/:id', path);
  if (pkg && /^\d+$/.test(pkg.id ?? '')) return <Lazy load={loadPackageDetail} props={{ id: Number(pkg.id), session }} />;
  if (path === '/dispatch')
    return can(role, 'route.manage') && role !== 'company' ? <Lazy load={loadDispatch} props={{}} /> : <NotAllowed />;
  if (path === '/map' || path === '/routes' || path.startsWith('/routes/'))
    return <Lazy load={loadRoutes} props={{ path, query, session }} />;
  // Same roles as the API (GET|PATCH settings/business-profile/): admins only.
  if (path === '/settings/business-profile') return isAdmin(role) ? <Lazy load={loadBusinessProfile} props={{}} /> : <NotAllowed />;
  if (path === '/fleet/plan-settings') return can(role, 'route.manage') ? <Lazy load={loadFleet} props={{ path }} /> : <NotAllowed />;
  if (path === '/fleet/shifts') return can(role, 'route.manage') ? <Lazy load={loadFleet} props={{ path }} /> : <NotAllowed />;
  if (path === '/fleet/depots') return can(role, 'warehouse.manage') ? <Lazy load={loadFleet} props={{ path }} /> : <NotAllowed />;
  // The server checks each call's roles again (server/routes/cod.ts).
  if (path.startsWith('/cod/')) return <Lazy key={path} load={loadCod} props={{ path, session }} />;
  if (path.startsWith('/org/')) return <Lazy load={loadOrg} props={{ path, session }} />;
  const business = businessRoute(path, query, session);
  if (business) return business;

  const res = match('/r/:name', path) ?? match('/r/:name/:view', path);
  if (res) {
    const decl = resourceByName(res.name ?? '');
    if (!decl)
      return (
        <div class="card">
          <Empty title="No such screen" />
        </div>
      );
    if (!can(role, decl.view)) return <NotAllowed />;
    const archived = res.view === 'archive';
    return <ResourceScreen key={`${decl.name}:${archived}`} decl={decl} session={session} archived={archived} />;
  }
  return (
    <div class="card">
      <Empty title="Page not found">
        <a href="#/">Go to the dashboard</a>
      </Empty>
    </div>
  );
}
