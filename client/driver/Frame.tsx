import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { updateReady } from '../app/serviceWorker';
import { useStore } from '../app/store';
import type { SessionInfo } from '../sync/index';
import { Button } from '../ui/Button';
import { useSyncStatus } from './hooks';
import { refreshRoutes } from './routeCache';
import { SyncChip, waitingOf } from './SyncChip';
import { commitAll } from './undo';
import { UndoBar } from './UndoBar';
import { Logo } from '../ui/Logo';

const TABS = [
  {
    href: '#/driver',
    label: 'Today',
    icon: '⌂',
    match: (p: string) => p === '/driver' || p === '/driver/' || p.startsWith('/driver/stop'),
  },
  { href: '#/driver/scan', label: 'Scan', icon: '▦', match: (p: string) => p.startsWith('/driver/scan') },
  { href: '#/driver/sync', label: 'Sync', icon: '⇅', match: (p: string) => p.startsWith('/driver/sync') },
  {
    href: '#/driver/more',
    label: 'More',
    icon: '☰',
    match: (p: string) => /^\/driver\/(more|history|earnings|cash|support|profile|pickups)/.test(p),
  },
] as const;

/** Phone layout: sync state on top, the screen, the undo bar, and four big tabs under the thumb. */
export function Frame({ path, me, children }: { path: string; me: SessionInfo; children: ComponentChildren }) {
  const status = useSyncStatus();
  const update = useStore(updateReady);
  // Each sync pass may bring new routes; the list is small and only fetched with signal.
  useEffect(() => {
    if (status.online && status.lastSyncedAt) void refreshRoutes();
  }, [status.lastSyncedAt]);
  const waiting = waitingOf(status);
  return (
    <div class="drv-app">
      <header class="drv-top">
        <a class="brand" href="#/driver">
          <Logo />
          <span>{me.name.split(' ')[0]}</span>
        </a>
        <span class="spacer" />
        <SyncChip status={status} />
      </header>
      {status.loginNeeded && (
        <a class="drv-banner bad" href="#/driver/sync" role="alert">
          Log in again to send {waiting} saved action{waiting === 1 ? '' : 's'}. Nothing is lost.
        </a>
      )}
      {status.rejected > 0 && (
        <a class="drv-banner bad" href="#/driver/sync" role="alert" data-testid="rejected-banner">
          {status.rejected} action{status.rejected === 1 ? ' was' : 's were'} refused by the office: tap to see why
        </a>
      )}
      {status.notices > 0 && (
        <a class="drv-banner info" href="#/driver/sync" role="status" data-testid="notice-banner">
          The office has {status.notices} message{status.notices === 1 ? '' : 's'} about your deliveries: tap to read
        </a>
      )}
      {update && (
        <div class="drv-banner info" role="status">
          A new version is ready. Your saved work stays on the phone.
          <Button size="small" variant="primary" onClick={() => void commitAll().then(update)}>
            Update now
          </Button>
        </div>
      )}
      <main class="drv-main" id="main">
        {children}
      </main>
      <UndoBar />
      <nav class="drv-tabs" aria-label="Driver">
        {TABS.map((t) => (
          <a key={t.href} href={t.href} aria-current={t.match(path) ? 'page' : undefined}>
            <span class="icon" aria-hidden="true">
              {t.icon}
            </span>
            <span>
              {t.label}
              {t.label === 'Sync' && waiting + status.rejected > 0 ? ` (${waiting + status.rejected})` : ''}
            </span>
          </a>
        ))}
      </nav>
    </div>
  );
}
