import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { SupervisorScanItem } from '../../shared/schemas/delivery';
import { api } from '../api/client';
import type { Page } from '../api/paging';
import { PATHS } from '../api/paths';
import { ROLE_LABELS } from '../app/access';
import { Banners } from '../app/Banners';
import { keepOffline, type OfflineState } from '../app/offlineCache';
import { match } from '../app/router';
import type { Session } from '../app/session';
import { logout } from '../app/Shell';
import { Button, LinkButton } from '../ui/Button';
import { MODE_TITLES, ScanStation } from './ScanStation';
import { startDepotEngine, type ScanKind } from './scanQueue';
import { clock } from '../ui/when';

type SupervisorItem = z.infer<typeof SupervisorScanItem>;

/** Today's supervisor scans from the server (every supervisor's, so a shift hand-over sees them). */
function SupervisorList() {
  const [items, setItems] = useState<SupervisorItem[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    const load = () =>
      api.get<Page<SupervisorItem>>(PATHS.scan.supervisorList, { page_size: 50 }).then(
        (p) => {
          if (live) {
            setItems(p.results);
            setError('');
          }
        },
        () => {
          if (live) setError('The list could not be loaded');
        },
      );
    void load();
    const t = setInterval(() => void load(), 5000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, []);
  return (
    <div class="list" data-testid="supervisor-list">
      <h2>Supervisor scans today</h2>
      {error ? (
        <div class="empty">{error}</div>
      ) : items === null ? (
        <div class="empty">Loading…</div>
      ) : items.length === 0 ? (
        <div class="empty">None yet.</div>
      ) : (
        <ul>
          {items.map((it) => (
            <li key={it.event.id} class="ok">
              <div style={{ flex: 1 }}>
                <div class="code">{it.package.hawb}</div>
                <div class="why">
                  {clock(it.event.occurred_at)} · {it.event.actor?.name ?? ''} · {it.package.status.replace(/_/g, ' ')}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const MODES: { kind: ScanKind; path: string; blurb: string }[] = [
  { kind: 'zone', path: 'inbound', blurb: 'Parcels arriving at the depot: marks them received and shows their zone.' },
  { kind: 'supervisor', path: 'supervisor', blurb: 'Check parcels on the floor; each scan is logged, nothing changes.' },
  { kind: 'return', path: 'returns', blurb: 'Parcels drivers bring back after failed deliveries.' },
];

const OFFLINE_WORDS: Partial<Record<OfflineState, string>> = {
  caching: 'Saving for offline…',
  ready: 'Works offline',
  failed: 'Not saved for offline yet',
};

/**
 * The depot's screens are not in the service worker's precache (that is the driver's phone's); the
 * tablet caches them itself once the depot has loaded, and says whether it would reopen offline.
 */
function useOfflineReady(): OfflineState {
  const [state, setState] = useState<OfflineState>('caching');
  useEffect(() => {
    let live = true;
    const run = () =>
      void keepOffline('/depot-precache.json').then((s) => {
        if (live) setState(s);
      });
    run();
    // A tablet that came up without signal tries again when it returns.
    window.addEventListener('online', run);
    return () => {
      live = false;
      window.removeEventListener('online', run);
    };
  }, []);
  return state;
}

/**
 * The tablet's outbox, under the web login's user: started once, it sends saved scans whenever the
 * server answers (and after a reload or a restart). Answers how many scans are saved and not sent.
 */
function useDepotOutbox(session: Session): { unsent: number; online: boolean } {
  const [state, setState] = useState({ unsent: 0, online: navigator.onLine });
  // Before paint: a scan in the station's first instant waits for this adoption (scanQueue.saveScan).
  useLayoutEffect(() => {
    let off: (() => void) | null = null;
    let live = true;
    void startDepotEngine(session).then(
      (e) => {
        if (!live) return;
        off = e.subscribe((s) => setState({ unsent: s.queued + s.sending + s.held, online: s.online }));
      },
      () => undefined,
    );
    return () => {
      live = false;
      off?.();
    };
  }, [session.token]);
  return state;
}

/** Depot tablets: full-screen scanning, big targets, dark background so the result colours stand out. */
export default function Depot({ path, session }: { path: string; session: Session }) {
  const offline = useOfflineReady();
  const outbox = useDepotOutbox(session);
  const m = match('/depot/:mode', path);
  const modes = MODES;
  const mode = modes.find((x) => x.path === m?.mode);
  return (
    <div class="depot">
      <div class="depot-bar">
        <span class="title">{mode ? MODE_TITLES[mode.kind] : 'Depot scanning'}</span>
        <span class="spacer" />
        <span class="states">
          {OFFLINE_WORDS[offline] && (
            <span class={`offline-state ${offline}`} role="status" data-testid="depot-offline" data-state={offline}>
              {OFFLINE_WORDS[offline]}
            </span>
          )}
          {/* What the tablet holds, said plainly: "Works offline" alone hid unsent scans (issue 35). */}
          <span
            class={`offline-state ${outbox.unsent ? 'failed' : 'ready'}`}
            role="status"
            data-testid="depot-unsent"
            data-count={outbox.unsent}
            data-online={outbox.online}
          >
            {outbox.unsent ? `${outbox.unsent} saved, will send` : outbox.online ? 'All sent' : 'No signal: scans are saved here'}
          </span>
        </span>
        {mode &&
          modes.map((x) => (
            <LinkButton key={x.kind} href={`#/depot/${x.path}`} aria-pressed={x.kind === mode.kind}>
              {x.kind === 'zone' ? 'Inbound' : x.kind === 'supervisor' ? 'Supervisor' : 'Returns'}
            </LinkButton>
          ))}
        <LinkButton href="#/">Exit</LinkButton>
        <Button onClick={() => void logout()}>Log out</Button>
      </div>
      <Banners offline="Scans are saved on this tablet and sent once when the connection returns; zones and routes shown are from the last load." />
      {mode ? (
        <ScanStation key={mode.kind} kind={mode.kind}>
          {mode.kind === 'supervisor' ? <SupervisorList /> : undefined}
        </ScanStation>
      ) : (
        <div class="modes">
          {modes.map((x) => (
            <a key={x.kind} class="mode-card" href={`#/depot/${x.path}`}>
              <strong>{MODE_TITLES[x.kind]}</strong>
              <span>{x.blurb}</span>
            </a>
          ))}
          <p style={{ gridColumn: '1 / -1', color: '#c5d0e0' }}>
            {session.user.name} · {ROLE_LABELS[session.user.role]}
          </p>
        </div>
      )}
    </div>
  );
}
