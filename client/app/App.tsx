import { canUseAdmin, canUseDepot, ROLE_LABELS } from './access';
import { dayOnPhone } from '../driver/localKeys';
import { Lazy, preload } from './Lazy';
import Login from './Login';
import { recoverDepotSession } from './recoverSession';
import { location, navigate, useLocation } from './router';
import { session, type Session } from './session';
import { Shell, logout } from './Shell';
import { useStore } from './store';
import { Button, LinkButton } from '../ui/Button';
import { Toasts } from '../ui/Toasts';

// Module-level loaders: Lazy keys its effect on the loader, so these must be stable references.
const loadAdmin = () => import('../admin/index');
const loadDepot = () => import('../depot/index');
// The driver app resolves once its first frame can be drawn (a day on the phone has been read).
const loadDriver = () => {
  // A phone with a day on it needs the day's chunk too: fetched alongside the driver's entry, not after it.
  if (dayOnPhone()) void import('../driver/Workday').catch(() => undefined);
  return import('../driver/index').then(async (m) => {
    await m.ready();
    return m;
  });
};
const loadReset = () => import('./PasswordReset');

function Refused({ current, what }: { current: Session; what: string }) {
  const driver = current.user.role === 'driver';
  return (
    <div class="login-page">
      <div class="card login-card stack" role="alert" data-testid="refused">
        <h1>Not available for this account</h1>
        <p>
          {current.user.name} is signed in as <strong>{ROLE_LABELS[current.user.role]}</strong>, which cannot open {what}.
        </p>
        {driver && <p>Drivers work in the driver app.</p>}
        <div class="row">
          {driver && (
            <LinkButton href="#/driver" variant="primary">
              Open the driver app
            </LinkButton>
          )}
          <Button onClick={() => void logout()}>Log out</Button>
        </div>
      </div>
    </div>
  );
}

/** Whether this page load has tried to take a depot session back from the outbox (once only). */
let recovering: 'no' | 'yes' | 'done' = 'no';

function Routes() {
  const { path, query } = useLocation();
  const current = useStore(session);

  if (path === '/driver' || path.startsWith('/driver/')) return <Lazy load={loadDriver} props={{ path }} />;
  if (path === '/reset-password' || path === '/forgot-password') return <Lazy load={loadReset} props={{ token: query.get('token') }} />;
  if (!current) {
    // The installed app starts at `/`; a phone that has used the driver app goes back to it.
    if (path === '/' && dayOnPhone()) {
      navigate('/driver', undefined, true);
      return null;
    }
    if ((path === '/depot' || path.startsWith('/depot/')) && recovering !== 'done') {
      // A crashed tablet may have lost the web session but not its unsent scans (recoverSession.ts).
      if (recovering === 'no') {
        recovering = 'yes';
        void recoverDepotSession()
          .catch(() => false)
          .then((ok) => {
            recovering = 'done';
            if (!ok) navigate('/login', { next: path }, true);
          });
      }
      return null;
    }
    if (path !== '/login') {
      // Keep where the user was going so the login can send them there.
      navigate('/login', { next: path === '/' ? undefined : path }, true);
      return null;
    }
    return <Login />;
  }
  if (path === '/login') {
    // Just logged in (or opened the login with a session): on to where the user was going.
    const next = query.get('next');
    navigate(next && next !== '/login' ? next : '/', undefined, true);
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

/** Where the app opens to the driver app (the installed app starts at `/`, see Routes). */
function opensDriver(path: string): boolean {
  return path === '/driver' || path.startsWith('/driver/') || (path === '/' && !session.get() && dayOnPhone());
}

/**
 * Started before the first render (main.tsx): the screen being opened, so that first frame is the
 * screen itself and not "Loading". Only the driver app benefits today (a phone's cold and warm start).
 */
export function preloadFirstScreen(): Promise<unknown> {
  return opensDriver(location.get().path) ? preload(loadDriver) : Promise.resolve();
}

export function App() {
  return (
    <>
      <Routes />
      <Toasts />
    </>
  );
}
