import { canUseAdmin, canUseDepot, ROLE_LABELS } from './access';
import { Lazy } from './Lazy';
import Login from './Login';
import { navigate, useLocation } from './router';
import { session, type Session } from './session';
import { Shell, logout } from './Shell';
import { useStore } from './store';
import { Button, LinkButton } from '../ui/Button';
import { Toasts } from '../ui/Toasts';

// Module-level loaders: Lazy keys its effect on the loader, so these must be stable references.
const loadAdmin = () => import('../admin/index');
const loadDepot = () => import('../depot/index');
const loadDriver = () => import('../driver/index');
const loadReset = () => import('./PasswordReset');

function Refused({ current, what }: { current: Session; what: string }) {
  const driver = current.user.role === 'driver';
  return (
    <div class="login-page">
      <div class="card login-card stack" role="alert" data-testid="refused">
        <h1>Not available for this account</h1>
        <p>{current.user.name} is signed in as <strong>{ROLE_LABELS[current.user.role]}</strong>, which cannot open {what}.</p>
        {driver && <p>Drivers work in the driver app.</p>}
        <div class="row">
          {driver && <LinkButton href="#/driver" variant="primary">Open the driver app</LinkButton>}
          <Button onClick={() => void logout()}>Log out</Button>
        </div>
      </div>
    </div>
  );
}

function Routes() {
  const { path, query } = useLocation();
  const current = useStore(session);

  if (path === '/driver' || path.startsWith('/driver/')) return <Lazy load={loadDriver} props={{ path }} />;
  if (path === '/reset-password' || path === '/forgot-password') return <Lazy load={loadReset} props={{ token: query.get('token') }} />;
  if (!current) {
    // The installed app starts at `/`; a phone that has used the driver app goes back to it.
    if (path === '/' && localStorage.getItem('courier.driver') === '1') {
      navigate('/driver', undefined, true);
      return null;
    }
    if (path !== '/login') {
      // Keep where the user was going so the login can send them there.
      navigate('/login', { next: path === '/' ? undefined : path }, true);
      return null;
    }
    return <Login next={query.get('next') ?? undefined} />;
  }
  if (path === '/login') {
    navigate(query.get('next') ?? '/', undefined, true);
    return null;
  }
  if (path === '/depot' || path.startsWith('/depot/')) {
    if (!canUseDepot(current.user.role)) return <Refused current={current} what="depot scanning" />;
    return <Lazy load={loadDepot} props={{ path, session: current }} />;
  }
  if (!canUseAdmin(current.user.role)) return <Refused current={current} what="the admin screens" />;
  return (
    <Shell current={current}>
      <Lazy load={loadAdmin} props={{ path, query, session: current }} />
    </Shell>
  );
}

export function App() {
  return (
    <>
      <Routes />
      <Toasts />
    </>
  );
}
