import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { statusLabel } from '../../shared/lifecycle';
import { Button } from '../ui/Button';
import { CameraScanner } from '../ui/CameraScanner';
import { Counter } from '../ui/Counter';
import { feedback, isMuted, setMuted } from '../ui/feedback';
import { useScanner } from '../ui/useScanner';
import { enqueueScan, type ScanKind, type ScanResult } from './scanQueue';

export const MODE_TITLES: Record<ScanKind, string> = {
  zone: 'Inbound: scan and assign zone',
  supervisor: 'Supervisor scan',
  return: 'Return-parcel scan',
};

const IDLE_HINT: Record<ScanKind, string> = {
  zone: 'Scan each parcel as it comes in. The zone to put it in shows here.',
  supervisor: 'Scan parcels to check them. Each scan is recorded under your name.',
  return: 'Scan parcels coming back from drivers. They are marked returned to the depot.',
};

type Tone = 'ok' | 'warn' | 'bad';
const TONE: Record<ScanResult['outcome'], Tone> = { ok: 'ok', assigned: 'warn', repeat: 'warn', unknown: 'bad', wrong_state: 'bad', offline: 'bad', error: 'bad' };
const VERDICT: Record<ScanResult['outcome'], string> = {
  ok: 'OK', assigned: 'At depot, still assigned to a driver', repeat: 'Already scanned', unknown: 'Unknown code', wrong_state: 'Cannot take this scan', offline: 'Not sent — offline', error: 'Error',
};

interface Exception extends ScanResult { key: number }

/**
 * One continuous scanning station. Scans from the keyboard wedge, the camera or the input box go
 * through one ordered chain, so a fast scanner never reorders parcels; each answer shows as a
 * colour, a sound and (for the zone scan) the zone in big letters.
 */
export function ScanStation({ kind, children }: { kind: ScanKind; children?: ComponentChildren }) {
  const [last, setLast] = useState<ScanResult | null>(null);
  const [counts, setCounts] = useState({ ok: 0, repeat: 0, problems: 0 });
  const [exceptions, setExceptions] = useState<Exception[]>([]);
  const [recent, setRecent] = useState<ScanResult[]>([]);
  const [pending, setPending] = useState(0);
  const [total, setTotal] = useState(0);
  const [camera, setCamera] = useState(false);
  const [muted, setMute] = useState(isMuted());
  const [typed, setTyped] = useState('');
  const chain = useRef<Promise<void>>(Promise.resolve());
  const nextKey = useRef(1);
  const input = useRef<HTMLInputElement>(null);

  const submit = (raw: string) => {
    const code = raw.trim();
    if (!code) return;
    setPending((n) => n + 1);
    chain.current = chain.current.then(async () => {
      const r = await enqueueScan(kind, code);
      feedback(r.outcome === 'ok' ? 'ok' : r.outcome === 'repeat' || r.outcome === 'assigned' ? 'warn' : 'error');
      setLast(r);
      setTotal((n) => n + 1);
      setPending((n) => n - 1);
      if (r.outcome === 'ok' || r.outcome === 'repeat' || r.outcome === 'assigned') {
        const k = r.outcome === 'assigned' ? 'ok' : r.outcome;
        setCounts((c) => ({ ...c, [k]: c[k] + 1 }));
        setRecent((list) => [r, ...list].slice(0, 50));
      } else {
        setCounts((c) => ({ ...c, problems: c.problems + 1 }));
        setExceptions((list) => [{ ...r, key: nextKey.current++ }, ...list].slice(0, 200));
      }
    });
  };

  // The wedge types into the focused scan box; the document listener catches scans when focus is elsewhere.
  useScanner({ onScan: submit });
  useEffect(() => { input.current?.focus(); }, [kind]);

  const retry = (e: Exception) => {
    setExceptions((list) => list.filter((x) => x.key !== e.key));
    setCounts((c) => ({ ...c, problems: Math.max(0, c.problems - 1) }));
    submit(e.barcode);
  };
  const dismiss = (e: Exception) => setExceptions((list) => list.filter((x) => x.key !== e.key));

  const tone = last ? TONE[last.outcome] : '';
  return (
    <main>
      <div class="stack" style={{ minWidth: 0 }}>
        <form class="scan-input" onSubmit={(e) => { e.preventDefault(); submit(typed); setTyped(''); }}>
          <label for="scan-box" class="sr-only">Barcode</label>
          <input id="scan-box" ref={input} data-scan-input class="input" autoComplete="off" autoCapitalize="off" spellcheck={false} enterKeyHint="send"
            placeholder="Scan or type a code, then Enter" value={typed} onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)} />
          <Button type="submit" size="big" variant="primary">Enter</Button>
        </form>
        <div class={`scan-panel ${tone}${pending ? ' busy' : ''}`} data-testid="scan-panel" data-total={total} data-outcome={last?.outcome ?? 'idle'} role="status" aria-live="assertive">
          {!last ? (
            <>
              <div class="verdict">Ready to scan</div>
              <div class="hint">{IDLE_HINT[kind]}</div>
            </>
          ) : (
            <>
              <div class="verdict">{VERDICT[last.outcome]}</div>
              {kind === 'zone' && last.outcome !== 'unknown' && last.outcome !== 'offline' && last.outcome !== 'error' && (
                <div class="zone" data-testid="scan-zone">{last.zone ? last.zone.name : 'No zone'}</div>
              )}
              <div class="code">{last.barcode}</div>
              <div class="hint">
                {last.package ? `${statusLabel(last.package.status)} · ${last.package.customer_name ?? ''} ${last.package.suburb_name ?? ''}` : ''}
              </div>
              <div class="hint">{last.message}</div>
            </>
          )}
          {pending > 1 && <div class="hint">{pending} scans waiting for an answer…</div>}
        </div>
        <div class="counters">
          <Counter label="Scanned" value={counts.ok} tone="ok" big />
          <Counter label="Repeats" value={counts.repeat} tone="warn" big />
          <Counter label="Problems" value={counts.problems} tone="bad" big />
        </div>
        <div class="row">
          <Button size="big" aria-pressed={camera} onClick={() => setCamera(!camera)}>{camera ? 'Hide camera' : 'Use camera'}</Button>
          <Button size="big" aria-pressed={muted} onClick={() => { setMuted(!muted); setMute(!muted); }}>{muted ? 'Sound off' : 'Sound on'}</Button>
        </div>
        {camera && <CameraScanner onScan={submit} onClose={() => setCamera(false)} />}
      </div>
      <div class="side">
        <div class="list" data-testid="exceptions">
          <h2>Exceptions to resolve <span class="badge bad">{exceptions.length}</span></h2>
          {exceptions.length === 0 ? <div class="empty">None. Unknown codes and parcels in the wrong state appear here.</div> : (
            <ul>
              {exceptions.map((e) => (
                <li key={e.key}>
                  <div style={{ flex: 1, minWidth: 0 }}>
                    <div class="code">{e.barcode}</div>
                    <div class="why">{VERDICT[e.outcome]}: {e.message}</div>
                  </div>
                  {(e.outcome === 'offline' || e.outcome === 'error') && <Button onClick={() => retry(e)}>Retry</Button>}
                  <Button onClick={() => dismiss(e)} aria-label={`Resolve ${e.barcode}`}>Resolved</Button>
                </li>
              ))}
            </ul>
          )}
        </div>
        {children ?? (
          <div class="list">
            <h2>Scanned this session</h2>
            {recent.length === 0 ? <div class="empty">Nothing yet.</div> : (
              <ul>
                {recent.map((r, i) => (
                  <li key={`${r.at}-${i}`} class="ok">
                    <div style={{ flex: 1 }}>
                      <div class="code">{r.barcode}</div>
                      <div class="why">{r.outcome === 'repeat' ? 'Already scanned' : r.zone ? `Zone ${r.zone.name}` : r.message}</div>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
    </main>
  );
}
