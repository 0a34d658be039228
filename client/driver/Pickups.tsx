import { useEffect, useRef, useState } from 'preact/hooks';
import { Button } from '../ui/Button';
import { CameraScanner } from '../ui/CameraScanner';
import { feedback, type Feedback } from '../ui/feedback';
import { useScanner } from '../ui/useScanner';
import { engine } from './engine';
import { recentPlace, warmPosition } from './geo';
import type { StoredPackage } from '../sync/index';
import { useSyncStatus } from './hooks';
import { partOfLabel, pickupPointOfCode } from './labels';
import { LOCAL_KEYS } from './localKeys';
import { online } from './online';

/** The pickup point the driver stands at: read from its QR code, confirmed by the server when there is signal. */
interface Point {
  id: number;
  code: string;
  name: string | null;
  confirmed: boolean;
  /** Parcels the server said wait there for this driver or for anyone (signal only). */
  waiting: number | null;
}

type Verdict = 'collected' | 'saved' | 'already' | 'not_yours' | 'not_pickup' | 'misread' | 'point' | 'point_bad' | 'error';

interface Result {
  code: string;
  verdict: Verdict;
  message: string;
  at: number;
}

const VERDICT: Record<Verdict, { text: string; tone: 'ok' | 'warn' | 'bad'; fb: Feedback }> = {
  collected: { text: 'Picked up', tone: 'ok', fb: 'ok' },
  saved: { text: 'Saved, will send', tone: 'warn', fb: 'warn' },
  already: { text: 'Already picked up', tone: 'warn', fb: 'warn' },
  not_yours: { text: 'Not yours', tone: 'bad', fb: 'error' },
  not_pickup: { text: 'Not a pickup', tone: 'bad', fb: 'error' },
  misread: { text: 'Scan again', tone: 'bad', fb: 'error' },
  point: { text: 'Pickup point', tone: 'ok', fb: 'ok' },
  point_bad: { text: 'Unknown point', tone: 'bad', fb: 'error' },
  error: { text: 'Not saved', tone: 'bad', fb: 'error' },
};

function savedPoint(): Point | null {
  try {
    const raw = localStorage.getItem(LOCAL_KEYS.pickupPoint);
    return raw ? (JSON.parse(raw) as Point) : null;
  } catch {
    return null;
  }
}

function keepPoint(p: Point | null): void {
  if (p) localStorage.setItem(LOCAL_KEYS.pickupPoint, JSON.stringify(p));
  else localStorage.removeItem(LOCAL_KEYS.pickupPoint);
}

interface PointAnswer {
  pickup_point: { id: number; person_name: string; address: string };
  pending: unknown[];
}

/** Asks the server about a scanned point (signal only): its name and what waits there; null when it cannot say now. */
async function confirmPoint(p: Point): Promise<Point | 'unknown' | null> {
  if (!navigator.onLine) return null;
  try {
    const a = await online<PointAnswer>('POST', 'pickup-point-scan/qr-scan/', { code: p.code, occurred_at: new Date().toISOString() });
    return { ...p, name: `${a.pickup_point.person_name}, ${a.pickup_point.address}`, confirmed: true, waiting: a.pending.length };
  } catch (err) {
    const status = (err as { status?: number }).status;
    return status === 404 || status === 400 ? 'unknown' : null;
  }
}

/**
 * The phone's copies of the driver's pickups, read again after each pull. Not the pending view: that
 * reads the whole outbox, and on every scan of a burst it would (the screen says what it queued itself).
 */
function usePickupCopies(lastSyncedAt: number | null): StoredPackage[] {
  const [rows, setRows] = useState<StoredPackage[]>([]);
  useEffect(() => {
    let live = true;
    void engine()
      .db.packages.where('status')
      .anyOf(['pickup_requested', 'picked_up'])
      .toArray()
      .then(
        (r) => {
          if (live) setRows(r);
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [lastSyncedAt]);
  return rows;
}

/**
 * Collecting parcels at a pickup point (issue 35): the same scanner input as the van's Scan screen,
 * every scan saved in the phone's outbox (same device sequence and keys) and sent once, with or
 * without signal. The point's QR code comes first when the parcels wait there for anyone; the
 * phone reads its id at once and the server confirms it when it can.
 */
export default function Pickups() {
  const status = useSyncStatus();
  const isOnline = status.online;
  const copies = usePickupCopies(status.lastSyncedAt);
  const [point, setPoint] = useState<Point | null>(savedPoint);
  const [last, setLast] = useState<Result | null>(null);
  const [recent, setRecent] = useState<Result[]>([]);
  const [total, setTotal] = useState(0);
  const [camera, setCamera] = useState(false);
  const [typed, setTyped] = useState('');
  const chain = useRef<Promise<void>>(Promise.resolve());
  const pointRef = useRef(point);
  pointRef.current = point;
  useEffect(() => {
    warmPosition();
  }, []);

  const choose = (p: Point | null) => {
    pointRef.current = p;
    keepPoint(p);
    setPoint(p);
  };
  // A point scanned without signal is confirmed once the phone has signal again.
  useEffect(() => {
    const p = pointRef.current;
    if (!p || p.confirmed || !isOnline) return;
    void confirmPoint(p).then((c) => {
      if (c && c !== 'unknown' && pointRef.current?.code === p.code) choose(c);
    });
  }, [isOnline, point?.code]);

  const answer = (r: Result) => {
    feedback(VERDICT[r.verdict].fb);
    setLast(r);
    setTotal((n) => n + 1);
    setRecent((list) => [r, ...list].slice(0, 100));
  };

  const submit = (raw: string) => {
    const code = raw.trim();
    if (!code) return;
    chain.current = chain.current.then(async () => {
      const at = Date.now();
      try {
        const pointId = pickupPointOfCode(code);
        if (pointId != null) {
          const p: Point = { id: pointId, code, name: null, confirmed: false, waiting: null };
          choose(p);
          const c = await confirmPoint(p);
          if (c === 'unknown') {
            choose(null);
            answer({ code, verdict: 'point_bad', message: 'This QR code is not one of our pickup points. Call the office.', at });
            return;
          }
          if (c) choose(c);
          answer({
            code,
            verdict: 'point',
            message: c
              ? `At ${c.name}. Now scan the parcels.`
              : 'No signal: the office confirms the point when the scans are sent. Scan the parcels.',
            at,
          });
          return;
        }
        const e = engine();
        const me = await e.session();
        // The pending view (queued scans laid over) only for a parcel the phone has: a burst of unknown codes reads one index each.
        const known = await e.db.packages.where('hawb').equals(code).first();
        const copy = known ? ((await e.pendingView()).find((p) => p.id === known.id) ?? null) : null;
        if (copy && me && copy.assigned_to_id != null && copy.assigned_to_id !== me.id) {
          answer({ code, verdict: 'not_yours', message: 'Another driver collects this parcel. Leave it at the pickup point.', at });
          return;
        }
        if (copy?.status === 'picked_up') {
          answer({ code, verdict: 'already', message: 'Already picked up: nothing more to do.', at });
          return;
        }
        if (copy && copy.status !== 'pickup_requested') {
          answer({
            code,
            verdict: 'not_pickup',
            message: `This parcel is ${copy.status.replace(/_/g, ' ')}, not waiting for a pickup. Use Scan to load the van.`,
            at,
          });
          return;
        }
        if (!copy && (await partOfLabel(code))) {
          answer({ code, verdict: 'misread', message: 'The scanner read only part of a label. Scan it again; nothing was recorded.', at });
          return;
        }
        const p = pointRef.current;
        await e.enqueue(e.actions.pickupScan(code, p ? { id: p.id, code: p.code } : null, recentPlace(), copy ?? undefined));
        answer(
          copy
            ? { code, verdict: 'collected', message: `Collected${copy.customer_name ? ` for ${copy.customer_name}` : ''}.`, at }
            : {
                code,
                verdict: 'saved',
                message: p
                  ? 'Not on your list: saved and sent to the office with this pickup point. Sync says what they answer.'
                  : 'Not on your list. Scan the pickup point’s QR code first if the parcel waits there for anyone. Sent to the office to check.',
                at,
              },
        );
      } catch (err) {
        answer({ code, verdict: 'error', message: err instanceof Error ? err.message : String(err), at });
      }
    });
  };
  useScanner({ onScan: submit });

  // Collected here and not yet in the phone's copies: the copies catch up at the next pull.
  const taken = new Set(recent.filter((r) => r.verdict === 'collected').map((r) => r.code));
  const mine = copies.filter((p) => p.status === 'pickup_requested' && !taken.has(p.hawb));
  const collected = copies.filter((p) => p.status === 'picked_up' || taken.has(p.hawb)).length;
  const v = last ? VERDICT[last.verdict] : null;
  return (
    <div class="drv-screen" data-testid="pickups-screen">
      <h1>Collect pickups</h1>
      <div class="pickup-point" data-testid="pickup-point" data-confirmed={point ? String(point.confirmed) : 'none'}>
        {point ? (
          <>
            <strong>{point.name ?? `Pickup point ${point.id}`}</strong>
            <span>
              {point.confirmed
                ? point.waiting != null
                  ? `${point.waiting} parcel${point.waiting === 1 ? '' : 's'} waiting here`
                  : 'Confirmed'
                : 'Not confirmed yet (no signal)'}
            </span>
            <Button size="small" onClick={() => choose(null)}>
              Leave point
            </Button>
          </>
        ) : (
          <span>Scan the pickup point’s QR code, then each parcel.</span>
        )}
      </div>
      <div
        class={`scan-result ${v?.tone ?? ''}`}
        role="status"
        aria-live="assertive"
        data-testid="scan-result"
        data-result={last?.verdict ?? 'idle'}
      >
        {last && v ? (
          <>
            <div class="verdict">{v.text}</div>
            <div class="code mono">{last.code}</div>
            <div class="why">{last.message}</div>
          </>
        ) : (
          <div class="why">Scan with the scanner or the camera. Scans are saved on the phone and sent once.</div>
        )}
      </div>
      {camera ? (
        <CameraScanner onScan={submit} onClose={() => setCamera(false)} />
      ) : (
        <Button variant="primary" class="xl" onClick={() => setCamera(true)}>
          Scan with camera
        </Button>
      )}
      <form
        class="scan-input"
        onSubmit={(e) => {
          e.preventDefault();
          submit(typed);
          setTyped('');
        }}
      >
        <label for="drv-pickup-scan" class="sr-only">
          Barcode
        </label>
        <input
          id="drv-pickup-scan"
          data-scan-input
          class="input"
          autoComplete="off"
          autoCapitalize="off"
          spellcheck={false}
          enterKeyHint="send"
          placeholder="Type a code"
          value={typed}
          onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)}
        />
        <Button type="submit" class="xl">
          Add
        </Button>
      </form>
      <h2>
        To collect: {mine.length} · collected: {collected}
      </h2>
      {mine.length > 0 && (
        <ul class="stops" data-testid="pickup-list">
          {mine.map((p) => (
            <li key={p.id}>
              <div class="pad">
                <span class="body">
                  <span class="line1 mono">{p.hawb}</span>
                  <span class="line2">{p.customer_name ?? '—'}</span>
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ul class="scan-log" data-testid="scan-log" data-total={total}>
        {recent.map((r) => (
          <li key={`${r.at}-${r.code}`} class={VERDICT[r.verdict].tone}>
            <span class="mono">{r.code}</span>
            <span>{VERDICT[r.verdict].text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
