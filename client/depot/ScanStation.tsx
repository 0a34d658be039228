import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { statusLabel } from '../../shared/lifecycle';
import { Button } from '../ui/Button';
import { CameraScanner } from '../ui/CameraScanner';
import { Counter } from '../ui/Counter';
import { feedback, isMuted, setMuted } from '../ui/feedback';
import { useScanner } from '../ui/useScanner';
import { engine } from '../driver/engine';
import type { OutboxRow } from '../sync/index';
import { ConfirmDialog } from '../ui/Dialog';
import { answerOf, fromRejection, isDepotRow, kindOfPath, refreshDay, saveScan, type ScanKind, type ScanResult } from './scanQueue';

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
const TONE: Record<ScanResult['outcome'], Tone> = {
  ok: 'ok',
  assigned: 'warn',
  repeat: 'warn',
  saved: 'warn',
  unknown: 'bad',
  misread: 'bad',
  wrong_state: 'bad',
  error: 'bad',
};
const VERDICT: Record<ScanResult['outcome'], string> = {
  ok: 'OK',
  assigned: 'At depot, still assigned to a driver',
  repeat: 'Already scanned',
  saved: 'Saved, will send',
  unknown: 'Unknown code',
  misread: 'Scan again',
  wrong_state: 'Cannot take this scan',
  error: 'Not saved',
};

/** Refused scans of this tablet, kept in its outbox (they survive a reload) until someone handles them. */
function useRefused(kind: ScanKind): { rows: OutboxRow[]; waiting: number } {
  const [state, setState] = useState<{ rows: OutboxRow[]; waiting: number }>({ rows: [], waiting: 0 });
  useEffect(() => {
    const e = engine();
    let live = true;
    const read = () =>
      void e.outbox().then(
        (all) => {
          if (!live) return;
          const mine = all.filter(isDepotRow);
          setState({
            rows: mine.filter((r) => r.status === 'rejected' && kindOfPath(r.path) === kind),
            waiting: mine.filter((r) => r.status !== 'rejected').length,
          });
        },
        () => undefined,
      );
    const off = e.subscribe(read);
    return () => {
      live = false;
      off();
    };
  }, [kind]);
  return state;
}

/**
 * One continuous scanning station. Scans from the keyboard wedge, the camera or the input box are
 * saved in the tablet's outbox in the order scanned (the driver's outbox: same device sequence, sent
 * once), then shown with the server's answer, or "saved, will send" with what the tablet's copy of
 * the day knows when there is no signal; each shows as a colour, a sound and the code.
 */
export function ScanStation({ kind, children }: { kind: ScanKind; children?: ComponentChildren }) {
  const [last, setLast] = useState<ScanResult | null>(null);
  const [counts, setCounts] = useState({ ok: 0, repeat: 0, saved: 0 });
  const [recent, setRecent] = useState<ScanResult[]>([]);
  const [pending, setPending] = useState(0);
  const [total, setTotal] = useState(0);
  const [camera, setCamera] = useState(false);
  const [muted, setMute] = useState(isMuted());
  const [typed, setTyped] = useState('');
  const [clearing, setClearing] = useState(false);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const newest = useRef(0);
  const input = useRef<HTMLInputElement>(null);
  const refused = useRefused(kind);

  const show = (r: ScanResult, order: number) => {
    // Saved offline: a plain beep for a parcel on today's list, the double one for a code the tablet does not know.
    feedback(
      r.outcome === 'ok' || (r.outcome === 'saved' && r.parcel)
        ? 'ok'
        : r.outcome === 'repeat' || r.outcome === 'assigned' || r.outcome === 'saved'
          ? 'warn'
          : 'error',
    );
    if (order >= newest.current) setLast(r);
    setTotal((n) => n + 1);
    setPending((n) => n - 1);
    const k =
      r.outcome === 'ok' || r.outcome === 'assigned' ? 'ok' : r.outcome === 'repeat' ? 'repeat' : r.outcome === 'saved' ? 'saved' : null;
    if (k) setCounts((c) => ({ ...c, [k]: c[k] + 1 }));
    setRecent((list) => [r, ...list].slice(0, 50));
  };

  const submit = (raw: string) => {
    const code = raw.trim();
    if (!code) return;
    setPending((n) => n + 1);
    // Saving is in scan order; waiting for each answer is not, so a slow answer never holds the next scan.
    chain.current = chain.current.then(async () => {
      const at = Date.now();
      const order = ++newest.current;
      const row = await saveScan(kind, code, at);
      if (!('seq' in row)) {
        show(row, order);
        return;
      }
      void answerOf(kind, code, row.key, at).then((r) => show(r, order));
    });
  };

  // The one scanner input: the wedge lands here wherever the focus is (the box, a button, nothing).
  useScanner({ onScan: submit });
  useEffect(() => {
    input.current?.focus();
  }, [kind]);
  useEffect(() => {
    if (kind === 'zone') void refreshDay().catch(() => undefined);
  }, [kind]);

  const e = engine();
  const retry = (r: OutboxRow) => void e.retryRejected(r.id as number);
  const dismiss = (r: OutboxRow) => void e.discardRejected(r.id as number);
  const clearAll = async () => {
    for (const r of refused.rows) await e.discardRejected(r.id as number);
    setClearing(false);
  };

  const tone = last ? TONE[last.outcome] : '';
  return (
    <main>
      <div class="stack" style={{ minWidth: 0 }}>
        <form
          class="scan-input"
          onSubmit={(e) => {
            e.preventDefault();
            submit(typed);
            setTyped('');
          }}
        >
          <label for="scan-box" class="sr-only">
            Barcode
          </label>
          <input
            id="scan-box"
            ref={input}
            data-scan-input
            class="input"
            autoComplete="off"
            autoCapitalize="off"
            spellcheck={false}
            enterKeyHint="send"
            placeholder="Scan or type a code, then Enter"
            value={typed}
            onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)}
          />
          <Button type="submit" size="big" variant="primary">
            Enter
          </Button>
        </form>
        <div
          class={`scan-panel ${tone}${pending ? ' busy' : ''}`}
          data-testid="scan-panel"
          data-total={total}
          data-outcome={last?.outcome ?? 'idle'}
          role="status"
          aria-live="assertive"
        >
          {!last ? (
            <>
              <div class="verdict">Ready to scan</div>
              <div class="hint">{IDLE_HINT[kind]}</div>
            </>
          ) : (
            <>
              <div class="verdict">{VERDICT[last.outcome]}</div>
              {kind === 'zone' &&
                (last.outcome === 'ok' ||
                  last.outcome === 'assigned' ||
                  last.outcome === 'repeat' ||
                  (last.outcome === 'saved' && last.zone)) && (
                  <div class={`zone${last.unconfirmed ? ' unconfirmed' : ''}`} data-testid="scan-zone" data-unconfirmed={last.unconfirmed}>
                    {last.zone ? last.zone.name : 'No zone'}
                    {last.unconfirmed && <span class="unconfirmed-tag"> (not confirmed)</span>}
                  </div>
                )}
              <div class="code">{last.barcode}</div>
              <div class="hint">
                {last.parcel
                  ? [
                      last.parcel.status ? statusLabel(last.parcel.status) : null,
                      [last.parcel.customer_name, last.parcel.suburb_name].filter(Boolean).join(', '),
                    ]
                      .filter(Boolean)
                      .join(' · ')
                  : ''}
              </div>
              <div class="hint">{last.message}</div>
            </>
          )}
          {pending > 1 && <div class="hint">{pending} scans waiting for an answer…</div>}
          {refused.waiting > 0 && (
            <div class="hint" data-testid="depot-waiting" data-count={refused.waiting}>
              {refused.waiting} saved on this tablet, will send
            </div>
          )}
        </div>
        <div class="counters">
          <Counter label="Scanned" value={counts.ok} tone="ok" big />
          <Counter label="Repeats" value={counts.repeat} tone="warn" big />
          <Counter label="Saved, not sent" value={counts.saved} tone="warn" big />
          <Counter label="Problems" value={refused.rows.length} tone="bad" big />
        </div>
        <div class="row">
          <Button size="big" aria-pressed={camera} onClick={() => setCamera(!camera)}>
            {camera ? 'Hide camera' : 'Use camera'}
          </Button>
          <Button
            size="big"
            aria-pressed={muted}
            onClick={() => {
              setMuted(!muted);
              setMute(!muted);
            }}
          >
            {muted ? 'Sound off' : 'Sound on'}
          </Button>
        </div>
        {camera && <CameraScanner onScan={submit} onClose={() => setCamera(false)} />}
      </div>
      <div class="side">
        <div class="list" data-testid="exceptions">
          <h2>
            Exceptions to resolve{' '}
            <span class="badge bad" data-testid="exception-count">
              {refused.rows.length}
            </span>
          </h2>
          {refused.rows.length > 1 && (
            <Button size="big" data-testid="clear-exceptions" onClick={() => setClearing(true)}>
              Clear all handled
            </Button>
          )}
          {refused.rows.length === 0 ? (
            <div class="empty">None. Unknown codes and parcels in the wrong state appear here.</div>
          ) : (
            <ul>
              {refused.rows.map((r) => {
                const x = fromRejection(kind, String(r.body.barcode ?? ''), r.rejection, r.key, r.createdAt);
                return (
                  <li key={r.id} data-testid="exception">
                    <div style={{ flex: 1, minWidth: 0 }}>
                      <div class="code">{x.barcode}</div>
                      <div class="why">
                        {VERDICT[x.outcome]}: {x.message}
                      </div>
                    </div>
                    {x.outcome === 'error' && <Button onClick={() => retry(r)}>Retry</Button>}
                    <Button onClick={() => dismiss(r)} aria-label={`Resolve ${x.barcode}`}>
                      Resolved
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          {clearing && (
            <ConfirmDialog
              title="Clear all exceptions?"
              confirmLabel="Clear all"
              onClose={() => setClearing(false)}
              onConfirm={() => void clearAll()}
              message={
                <p>
                  Clear these {refused.rows.length} exceptions once each parcel is put aside. The office keeps its own record of every one.
                </p>
              }
            />
          )}
        </div>
        {children ?? (
          <div class="list">
            <h2>Scanned this session</h2>
            {recent.length === 0 ? (
              <div class="empty">Nothing yet.</div>
            ) : (
              <ul>
                {recent.map((r, i) => (
                  <li key={`${r.at}-${i}`} class={TONE[r.outcome]}>
                    <div style={{ flex: 1 }}>
                      <div class="code">{r.barcode}</div>
                      <div class="why">
                        {r.outcome === 'repeat'
                          ? 'Already scanned'
                          : r.outcome === 'saved'
                            ? VERDICT.saved
                            : r.zone
                              ? `Zone ${r.zone.name}`
                              : r.message}
                      </div>
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
