import { useEffect, useRef, useState } from 'preact/hooks';
import type { LocalCheckResult, ViewPackage } from '../sync/index';
import { Button } from '../ui/Button';
import { CameraScanner } from '../ui/CameraScanner';
import { feedback, isMuted, setMuted, type Feedback } from '../ui/feedback';
import { useScanner } from '../ui/useScanner';
import { mustReturn } from './day';
import { engine } from './engine';
import { partOfLabel } from './labels';
import { maxAttempts } from './routeCache';
import { recentPlace, warmPosition } from './geo';

/** The same label seen by the camera again within this long is the same parcel still in view. */
const CAMERA_REPEAT_MS = 10_000;

interface Result {
  code: string;
  result: LocalCheckResult | 'misread' | 'error';
  message: string;
  at: number;
}

const VERDICT: Record<Result['result'], { text: string; tone: 'ok' | 'warn' | 'bad'; fb: Feedback }> = {
  loadable: { text: 'Loaded', tone: 'ok', fb: 'ok' },
  already_loaded: { text: 'Already loaded', tone: 'warn', fb: 'warn' },
  not_yours: { text: 'Not yours', tone: 'bad', fb: 'error' },
  unknown: { text: 'Not on your list', tone: 'bad', fb: 'error' },
  misread: { text: 'Scan again', tone: 'bad', fb: 'error' },
  not_loadable: { text: 'Cannot load', tone: 'bad', fb: 'error' },
  error: { text: 'Not saved', tone: 'bad', fb: 'error' },
};

/** Another driver's parcel: taken off this phone (the office gave it away) or never on it. */
function notYoursWords(p: ViewPackage | null): string {
  return p
    ? `${p.assigned_to?.name ?? 'Another driver'} has this parcel. Do not load it; leave it at the depot.`
    : 'The office gave this parcel to another driver. Do not load it; hand it to the depot staff.';
}

/**
 * Loading the van. Every scan (keyboard-wedge scanner, camera or typed) is checked against the
 * parcels on the phone and answered at once with colour, sound and vibration; then it joins the
 * outbox. Scans go through one chain so a fast scanner never reorders them.
 */
export default function Scan() {
  const [last, setLast] = useState<Result | null>(null);
  const [recent, setRecent] = useState<Result[]>([]);
  const [camera, setCamera] = useState(false);
  const [batch, setBatch] = useState(true);
  const [muted, setMute] = useState(isMuted());
  const [typed, setTyped] = useState('');
  const [total, setTotal] = useState(0);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const batchRef = useRef(batch);
  batchRef.current = batch;
  const seenByCamera = useRef(new Map<string, number>());
  useEffect(() => {
    warmPosition();
  }, []);

  const submit = (raw: string) => {
    const code = raw.trim();
    if (!code) return;
    chain.current = chain.current.then(async () => {
      const e = engine();
      let r: Result;
      try {
        const check = await e.localCheck(code);
        // The engine calls every failed parcel loadable; one that used its attempts goes back to the depot instead.
        if (check.result === 'loadable' && check.package && mustReturn(check.package, maxAttempts.get())) {
          check.result = 'not_loadable';
          check.message = `Parcel ${code} used all its attempts: take it back to the depot`;
        }
        // Part of a label on the phone's list (a scan cut short): nothing is sent, the driver scans again.
        const whole = check.result === 'unknown' ? await partOfLabel(code) : null;
        // Unknown codes are sent too: the manifest may be older than the office's last assignment.
        if (check.result === 'loadable' || (check.result === 'unknown' && !whole))
          await e.enqueue(e.actions.inboundScan(code, recentPlace(), check.package ?? undefined));
        const who = check.package ? [check.package.customer_name, check.package.customer_address].filter(Boolean).join(', ') : '';
        const message = whole
          ? 'The scanner read only part of a label. Scan it again; nothing was recorded.'
          : check.result === 'unknown'
            ? 'Not on your list. Sent to the office to check; Sync says what they answer.'
            : check.result === 'loadable'
              ? `On the van${who ? ` for ${who}` : ''}`
              : check.result === 'not_yours'
                ? notYoursWords(check.package)
                : check.message;
        r = { code, result: whole ? 'misread' : check.result, message, at: Date.now() };
      } catch (err) {
        r = { code, result: 'error', message: err instanceof Error ? err.message : String(err), at: Date.now() };
      }
      feedback(VERDICT[r.result].fb);
      setLast(r);
      setTotal((n) => n + 1);
      setRecent((list) => [r, ...list].slice(0, 100));
      if (!batchRef.current) setCamera(false);
    });
  };
  useScanner({ onScan: submit });
  // A label left in front of the camera would otherwise answer "already loaded" every two seconds.
  const fromCamera = (code: string) => {
    const now = Date.now();
    const seen = seenByCamera.current.get(code);
    seenByCamera.current.set(code, now);
    if (seen !== undefined && now - seen < CAMERA_REPEAT_MS) return;
    submit(code);
  };

  const v = last ? VERDICT[last.result] : null;
  const loaded = recent.filter((r) => r.result === 'loadable').length;
  return (
    <div class="drv-screen" data-testid="scan-screen">
      <h1>Load the van</h1>
      <div
        class={`scan-result ${v?.tone ?? ''}`}
        role="status"
        aria-live="assertive"
        data-testid="scan-result"
        data-result={last?.result ?? 'idle'}
      >
        {last && v ? (
          <>
            <div class="verdict">{v.text}</div>
            <div class="code mono">{last.code}</div>
            <div class="why">{last.message}</div>
          </>
        ) : (
          <div class="why">Scan a parcel label with the scanner or the camera.</div>
        )}
      </div>
      {camera ? (
        <CameraScanner onScan={fromCamera} onClose={() => setCamera(false)} />
      ) : (
        <Button variant="primary" class="xl" onClick={() => setCamera(true)}>
          Scan with camera
        </Button>
      )}
      <div class="row">
        <Button class="xl grow" aria-pressed={batch} onClick={() => setBatch(!batch)}>
          {batch ? 'Batch: on' : 'Batch: off'}
        </Button>
        <Button
          class="xl grow"
          aria-pressed={!muted}
          onClick={() => {
            setMuted(!muted);
            setMute(!muted);
          }}
        >
          {muted ? 'Sound off' : 'Sound on'}
        </Button>
      </div>
      <form
        class="scan-input"
        onSubmit={(e) => {
          e.preventDefault();
          submit(typed);
          setTyped('');
        }}
      >
        <label for="drv-scan" class="sr-only">
          Barcode
        </label>
        <input
          id="drv-scan"
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
      <h2>This session: {loaded} loaded</h2>
      <ul class="scan-log" data-testid="scan-log" data-total={total}>
        {recent.map((r) => (
          <li key={`${r.at}-${r.code}`} class={VERDICT[r.result].tone}>
            <span class="mono">{r.code}</span>
            <span>{VERDICT[r.result].text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
