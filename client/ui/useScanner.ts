import { useEffect, useRef } from 'preact/hooks';
import { DEFAULT_BURST, ScanBurst, type BurstOptions, type KeyPlace, type Terminator } from './scanBurst';

export interface ScannerOptions {
  /** Called with each complete code, once, in the order scanned. */
  onScan: (code: string) => void;
  enabled?: boolean;
  /** See scanBurst.ts; the defaults suit wedge scanners typing 2-30 ms per key. */
  burst?: Partial<BurstOptions>;
}

/** The terminator the scanner was last seen to send, kept so a reload does not fall back to timing. */
const LEARNED_KEY = 'courier.scanner.terminator';

function learnedTerminator(): Terminator | null {
  try {
    const v = localStorage.getItem(LEARNED_KEY);
    return v === 'Enter' || v === 'Tab' ? v : null;
  } catch {
    return null;
  }
}

function remember(t: Terminator | null): void {
  try {
    if (t) localStorage.setItem(LEARNED_KEY, t);
    else localStorage.removeItem(LEARNED_KEY);
  } catch {
    /* private mode: learned again next time */
  }
}

function placeOf(target: EventTarget | null): { place: KeyPlace; field: HTMLInputElement | HTMLTextAreaElement | null } {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return { place: 'other', field: null };
  if (el.dataset?.scanInput !== undefined) return { place: 'scan_field', field: el as HTMLInputElement };
  if (
    el.tagName === 'TEXTAREA' ||
    (el.tagName === 'INPUT' && !/^(button|checkbox|radio|submit|reset|file|range|color)$/i.test((el as HTMLInputElement).type))
  ) {
    return { place: 'text_field', field: el as HTMLInputElement };
  }
  if (el.tagName === 'SELECT' || el.isContentEditable) return { place: 'text_field', field: null };
  return { place: 'other', field: null };
}

/** Sets a (possibly framework-controlled) field's text and tells its listeners, as typing would. */
function setFieldValue(field: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * The one scanner input of every scanning screen (driver Scan, depot inbound, supervisor, returns).
 * A capture-phase listener on the document sees every key first, wherever the focus is: a code ends
 * on the scanner's terminator (Enter or Tab), or on a pause only when the scanner sends none; all
 * timing is by the keys' own timeStamps (scanBurst.ts), so a busy page never splits or drops a code.
 *
 * - Focus in the scan box (`data-scan-input`): the box collects the keys; its Enter (or a scanner's
 *   Tab) hands over its text and empties it.
 * - Focus in another text field (a note): the burst types into it as usual; once it proves to be a
 *   scan, the field gets its text back and the code goes to the screen.
 * - Anywhere else: the keys are collected here; the terminator never clicks the focused button.
 *
 * Every code taken is also announced as a `courier:scan` event on the document (detail: the code),
 * so a screen's own log and the tests see exactly what the scanner delivered.
 */
export function useScanner({ onScan, enabled = true, burst }: ScannerOptions): void {
  const handler = useRef(onScan);
  handler.current = onScan;
  const options = { ...DEFAULT_BURST, ...burst };
  const key = JSON.stringify(options);
  useEffect(() => {
    if (!enabled) return;
    const state = new ScanBurst(options, learnedTerminator());
    let learned = state.learned;
    // The text of the ordinary field a burst started in, to give back if the burst is a scan.
    let saved: { field: HTMLInputElement | HTMLTextAreaElement; value: string } | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;

    const deliver = (code: string, restore: boolean) => {
      if (restore && saved && saved.field.isConnected) setFieldValue(saved.field, saved.value);
      saved = null;
      document.dispatchEvent(new CustomEvent('courier:scan', { detail: code }));
      handler.current(code);
    };
    const noteLearned = () => {
      if (state.learned !== learned) {
        learned = state.learned;
        remember(learned);
      }
    };
    const armIdle = (ms: number) => {
      if (timer) clearTimeout(timer);
      const due = performance.now() + ms;
      timer = setTimeout(() => {
        timer = null;
        const now = performance.now();
        const v = state.idle(now, now - due);
        if (!v) return;
        if (v.kind === 'wait') armIdle(v.ms);
        else if (v.kind === 'code') deliver(v.code, v.restoreField);
      }, ms);
    };

    const onKey = (e: KeyboardEvent) => {
      const { place, field } = placeOf(e.target);
      const v = state.key({
        key: e.key,
        timeStamp: e.timeStamp,
        handledAt: performance.now(),
        place,
        modified: e.ctrlKey || e.altKey || e.metaKey,
        fieldValue: place === 'scan_field' && field ? field.value : undefined,
      });
      noteLearned();
      if (v.kind === 'pass') return;
      if (v.kind === 'held') {
        if (v.startsBurst) saved = place === 'text_field' && field ? { field, value: field.value } : null;
        if (state.endsOnPause) armIdle(options.idleMs);
        return;
      }
      if (v.swallow) {
        e.preventDefault();
        e.stopPropagation();
      }
      if (place === 'scan_field' && field) setFieldValue(field, '');
      // A burst ended by the pause before this key: this key started the next one.
      const restore = v.restoreField;
      const previous = saved;
      if (v.by === 'pause') saved = place === 'text_field' && field ? { field, value: field.value } : null;
      if (v.by === 'pause') {
        if (restore && previous?.field.isConnected) setFieldValue(previous.field, previous.value);
        document.dispatchEvent(new CustomEvent('courier:scan', { detail: v.code }));
        handler.current(v.code);
        if (state.endsOnPause) armIdle(options.idleMs);
      } else deliver(v.code, restore);
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      if (timer) clearTimeout(timer);
    };
    // `key` is the options' value: a new options object with the same value re-binds nothing.
  }, [enabled, key]);
}
