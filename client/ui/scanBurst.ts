/**
 * The decisions of the one scanner input (useScanner.ts), apart from the DOM so they can be tested
 * key by key. A keyboard-wedge scanner types a code as a burst of keys a few milliseconds apart and
 * (nearly always) ends it with Enter or Tab. Every time here is the key event's `timeStamp`: when the
 * key was pressed, not when a busy page got round to handling it, so a page that stalls for 200 ms
 * mid-code sees the same 5 ms gaps the scanner typed (issue 35: timing by handling time split codes).
 */

export type Terminator = 'Enter' | 'Tab';
/** How a code ends: `auto` learns whether the scanner sends a terminator; `none` ends codes on a pause only. */
export type TerminatorMode = 'auto' | 'none';

export interface BurstOptions {
  /** Keys further apart than this (by timeStamp) are a person typing, not one scan. */
  maxGapMs: number;
  /** Shorter bursts are a person's quick keystrokes, not a label. */
  minLength: number;
  /** Without a terminator, a code ends after this long with no key (by timeStamp). */
  idleMs: number;
  mode: TerminatorMode;
}

export const DEFAULT_BURST: BurstOptions = { maxGapMs: 50, minLength: 3, idleMs: 250, mode: 'auto' };

/** Where the key went: the scan box (`data-scan-input`), another editable field, or anything else. */
export type KeyPlace = 'scan_field' | 'text_field' | 'other';

export interface KeyIn {
  key: string;
  timeStamp: number;
  place: KeyPlace;
  /** Ctrl, Alt or Meta held: a shortcut, never part of a code. */
  modified: boolean;
  /** The scan box's text when the key is Enter or Tab there. */
  fieldValue?: string;
  /** When the page handled the key (performance.now()), if later than its timeStamp: see idle(). */
  handledAt?: number;
}

export type Verdict =
  /** Not the scanner's: leave the key to the page. */
  | { kind: 'pass' }
  /** Part of a possible code: the key does its usual thing (a text field still receives it). */
  | { kind: 'held'; startsBurst: boolean }
  /**
   * A code is complete. `swallow`: the key that ended it (the terminator) must not reach the page.
   * `restoreField`: the burst also typed into an ordinary text field, which must get its text back.
   */
  | { kind: 'code'; code: string; swallow: boolean; restoreField: boolean; by: Terminator | 'pause' };

const isTerminator = (key: string): key is Terminator => key === 'Enter' || key === 'Tab';

/**
 * One listener's state. `learned` is the terminator the scanner was seen to send: once known, only
 * it (never a pause) ends a code; a complete fast burst left without it is still kept, when the next
 * key shows the pause (so nothing is dropped if the scanner is swapped for one without a suffix).
 */
export class ScanBurst {
  private buffer = '';
  private last = -Infinity;
  /** When the newest key was handled: a congested page hears keys late, and the quiet starts then. */
  private heard = -Infinity;
  /** The idle check has already waited once more for a page that ran it late (one extra wait per burst). */
  private lookedAgain = false;
  private inTextField = false;
  learned: Terminator | null;

  constructor(
    readonly options: BurstOptions = DEFAULT_BURST,
    learned: Terminator | null = null,
  ) {
    this.learned = options.mode === 'none' ? null : learned;
  }

  /** Whether codes end on a pause (no terminator known): the caller then runs a timer for `idle()`. */
  get endsOnPause(): boolean {
    return this.options.mode === 'none' || this.learned === null;
  }

  get pending(): string {
    return this.buffer;
  }

  /** The time of the newest key, for the caller's idle check. */
  get lastKeyAt(): number {
    return this.last;
  }

  private qualifies(): boolean {
    return this.buffer.trim().length >= this.options.minLength;
  }

  private take(by: Terminator | 'pause', swallow: boolean): Verdict {
    const code = this.buffer.trim();
    const restoreField = this.inTextField;
    this.reset();
    return { kind: 'code', code, swallow, restoreField, by };
  }

  reset(): void {
    this.buffer = '';
    this.last = -Infinity;
    this.heard = -Infinity;
    this.lookedAgain = false;
    this.inTextField = false;
  }

  key(k: KeyIn): Verdict {
    if (k.modified) return { kind: 'pass' };
    if (k.place === 'scan_field') {
      // The scan box is its own buffer: whatever is in it when Enter comes is the code, typed fast or
      // slow. Tab ends it only straight after a fast burst (a scanner's suffix); a person's Tab moves on.
      const fast = k.timeStamp - this.last <= this.options.maxGapMs * 2;
      if (!isTerminator(k.key)) {
        if (k.key.length === 1) this.last = k.timeStamp;
        return { kind: 'pass' };
      }
      const code = (k.fieldValue ?? '').trim();
      this.reset();
      if (!code || (k.key === 'Tab' && !fast)) return { kind: 'pass' };
      if (k.key === 'Tab' && this.options.mode === 'auto') this.learned = 'Tab';
      return { kind: 'code', code, swallow: true, restoreField: false, by: k.key };
    }
    const gap = k.timeStamp - this.last;
    if (isTerminator(k.key)) {
      if (this.qualifies() && gap <= this.options.maxGapMs * 2) {
        if (this.options.mode === 'auto') this.learned = k.key;
        return this.take(k.key, true);
      }
      this.reset();
      return { kind: 'pass' };
    }
    // Shift (upper-case letters) and other named keys a scanner sends between characters change nothing.
    if (k.key.length !== 1) {
      if (k.key === 'Backspace' || k.key === 'Escape' || k.key === 'Delete') this.reset();
      return { kind: 'pass' };
    }
    let done: Verdict | null = null;
    if (this.buffer && gap > this.options.maxGapMs) {
      // A pause measured between two key presses, never a busy page: what came before is finished.
      // A complete fast burst is a code that had no terminator; anything else was a person typing.
      if (this.qualifies()) {
        done = this.take('pause', false);
        if (this.options.mode === 'auto') this.learned = null;
      } else this.reset();
    }
    const startsBurst = this.buffer === '';
    if (startsBurst) this.inTextField = k.place === 'text_field';
    this.buffer += k.key;
    this.last = k.timeStamp;
    this.heard = Math.max(k.timeStamp, k.handledAt ?? k.timeStamp);
    this.lookedAgain = false;
    return done ?? { kind: 'held', startsBurst };
  }

  /**
   * The idle check, at `now` on the same clock as the keys' timeStamps (performance.now()), run by a
   * timer `lateBy` ms after it was due. Only a code with no terminator known ends here, so the check
   * is cautious where the page is congested: the browser may hold a burst's next key (it sends keys
   * one at a time, each after the page answered the last) while a timer runs, so a pause seen here
   * is counted from when the newest key was handled, not only pressed, and a timer that ran more
   * than a key gap late (a stalled page) waits one idle period more before it decides.
   */
  idle(now: number, lateBy = 0): Verdict | { kind: 'wait'; ms: number } | null {
    if (!this.buffer || !this.endsOnPause) return null;
    const quiet = now - Math.max(this.last, this.heard);
    if (quiet < this.options.idleMs) return { kind: 'wait', ms: this.options.idleMs - quiet };
    if (lateBy > this.options.maxGapMs && !this.lookedAgain) {
      this.lookedAgain = true;
      return { kind: 'wait', ms: this.options.idleMs };
    }
    if (!this.qualifies()) {
      this.reset();
      return null;
    }
    return this.take('pause', false);
  }
}
