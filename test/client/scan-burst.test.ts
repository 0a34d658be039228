/**
 * The scanner input's decisions (client/ui/scanBurst.ts), key by key with the keys' own timestamps.
 * The browser suite (test/browser/scanner.test.ts) replays real bursts on a throttled, busy page.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_BURST, ScanBurst, type KeyPlace, type Verdict } from '../../client/ui/scanBurst';

/** Feeds `code` then `end` at `gap` ms per key from `t0`; answers every verdict that was a code. */
function feed(
  s: ScanBurst,
  code: string,
  opts: { t0?: number; gap?: number; end?: string | null; place?: KeyPlace } = {},
): { codes: string[]; verdicts: Verdict[]; t: number } {
  const { t0 = 1000, gap = 5, end = 'Enter', place = 'other' } = opts;
  let t = t0;
  const verdicts: Verdict[] = [];
  for (const key of [...code, ...(end ? [end] : [])]) {
    verdicts.push(s.key({ key, timeStamp: t, place, modified: false }));
    t += gap;
  }
  return { codes: verdicts.flatMap((v) => (v.kind === 'code' ? [v.code] : [])), verdicts, t };
}

describe('scanner bursts by key timestamps', () => {
  it('takes a burst ended by Enter, whatever the handling delays (only timeStamps count), and learns Enter', () => {
    const s = new ScanBurst();
    const { codes, verdicts } = feed(s, 'MO1001089');
    expect(codes).toEqual(['MO1001089']);
    const last = verdicts.at(-1)!;
    expect(last.kind === 'code' && last.swallow && last.by === 'Enter').toBe(true);
    expect(s.learned).toBe('Enter');
  });

  it('takes Tab as a terminator and keeps it from moving the focus', () => {
    const s = new ScanBurst();
    const { verdicts } = feed(s, 'ABC12345', { end: 'Tab' });
    const last = verdicts.at(-1)!;
    expect(last).toMatchObject({ kind: 'code', code: 'ABC12345', swallow: true, by: 'Tab' });
  });

  it('ignores Shift between characters (upper-case letters from a scanner)', () => {
    const s = new ScanBurst();
    let t = 0;
    const out: Verdict[] = [];
    for (const key of ['Shift', 'M', 'Shift', 'O', '1', '2', 'Enter'])
      out.push(s.key({ key, timeStamp: (t += 3), place: 'other', modified: false }));
    expect(out.at(-1)).toMatchObject({ kind: 'code', code: 'MO12' });
  });

  it('leaves a person typing alone: slow keys then Enter are not a code, and Enter passes', () => {
    const s = new ScanBurst();
    const { codes, verdicts } = feed(s, 'hello', { gap: 180 });
    expect(codes).toEqual([]);
    expect(verdicts.at(-1)).toEqual({ kind: 'pass' });
  });

  it('does not take two quick keystrokes and Enter (shorter than a label)', () => {
    const s = new ScanBurst();
    expect(feed(s, 'ok', { gap: 20 }).codes).toEqual([]);
  });

  it('keeps back-to-back scans apart by the terminator, never merging or splitting them', () => {
    const s = new ScanBurst();
    let t = 0;
    const got: string[] = [];
    for (let i = 0; i < 200; i++) {
      const code = `PKG${String(i).padStart(6, '0')}`;
      const r = feed(s, code, { t0: t, gap: 2 + (i % 9) });
      got.push(...r.codes);
      t = r.t + 1; // the next label follows at once
    }
    expect(got).toEqual(Array.from({ length: 200 }, (_, i) => `PKG${String(i).padStart(6, '0')}`));
  });

  it('without a terminator, ends a code on a pause between key presses, at the next key or the idle check', () => {
    const s = new ScanBurst({ ...DEFAULT_BURST, mode: 'none' });
    const a = feed(s, 'AAA111', { end: null });
    expect(a.codes).toEqual([]);
    // Not yet: the scanner may still be typing.
    expect(s.idle(a.t + 10)).toMatchObject({ kind: 'wait' });
    // The next burst's first key, 300 ms later by its timestamp, ends the first code.
    const b = feed(s, 'BBB222', { t0: a.t + 300, end: null });
    expect(b.codes).toEqual(['AAA111']);
    expect(s.idle(b.t + DEFAULT_BURST.idleMs)).toMatchObject({ kind: 'code', code: 'BBB222', by: 'pause' });
  });

  it('a first code on a congested page: the pause counts from when a key was handled, and a late timer looks again', () => {
    // No terminator learned yet (a fresh station), so only the idle check could end the code early.
    const s = new ScanBurst();
    const keys = (code: string, t0: number, handledAt: number) =>
      [...code].map((key, i) => s.key({ key, timeStamp: t0 + i * 5, handledAt, place: 'other', modified: false }));
    // Pressed 5 ms apart, but the page got to "I0LX9Z" only at 1,200 ms (a busy task held it).
    keys('I0LX9Z', 1000, 1200);
    // Due by the keys' clock (last press 1,025 + 250), but only 80 ms after the page heard them: not yet.
    expect(s.idle(1025 + DEFAULT_BURST.idleMs)).toMatchObject({ kind: 'wait' });
    // 260 ms after they were heard, the timer itself ran 120 ms late: the page was stalled, look again.
    expect(s.idle(1460, 120)).toEqual({ kind: 'wait', ms: DEFAULT_BURST.idleMs });
    // The rest of the burst was behind the stall; its timestamps carry on 5 ms apart: one code.
    keys('YF604', 1030, 1500);
    expect(s.key({ key: 'Enter', timeStamp: 1060, handledAt: 1510, place: 'other', modified: false })).toMatchObject({
      kind: 'code',
      code: 'I0LX9ZYF604',
      by: 'Enter',
    });
    // A scanner with no terminator on a stalled page still gets its code, after one extra look.
    const n = new ScanBurst({ ...DEFAULT_BURST, mode: 'none' });
    const a = feed(n, 'NOEND42', { end: null });
    expect(n.idle(a.t + 300, 200)).toMatchObject({ kind: 'wait' });
    expect(n.idle(a.t + 600, 200)).toMatchObject({ kind: 'code', code: 'NOEND42', by: 'pause' });
  });

  it('in auto mode, once Enter is known, only Enter ends a code; a complete burst left without it is still kept', () => {
    const s = new ScanBurst(DEFAULT_BURST, 'Enter');
    expect(s.endsOnPause).toBe(false);
    const a = feed(s, 'NOSUFFIX1', { end: null });
    expect(s.idle(a.t + 10_000)).toBeNull();
    // Kept, not dropped, when the next key shows the pause; the terminator is unlearned.
    const b = feed(s, 'NEXT2', { t0: a.t + 500 });
    expect(b.codes).toEqual(['NOSUFFIX1', 'NEXT2']);
  });

  it('a burst in an ordinary text field is a code that gives the field its text back', () => {
    const s = new ScanBurst();
    const { verdicts } = feed(s, 'NOTE123', { place: 'text_field' });
    expect(verdicts[0]).toEqual({ kind: 'held', startsBurst: true });
    expect(verdicts.at(-1)).toMatchObject({ kind: 'code', code: 'NOTE123', restoreField: true });
  });

  it('the scan box hands over its text on Enter, typed slowly or fast; Tab only right after a fast burst', () => {
    const s = new ScanBurst();
    expect(s.key({ key: 'Enter', timeStamp: 50_000, place: 'scan_field', modified: false, fieldValue: ' TYPED1 ' })).toMatchObject({
      kind: 'code',
      code: 'TYPED1',
      swallow: true,
    });
    expect(s.key({ key: 'Enter', timeStamp: 50_100, place: 'scan_field', modified: false, fieldValue: '' })).toEqual({ kind: 'pass' });
    expect(s.key({ key: 'Tab', timeStamp: 60_000, place: 'scan_field', modified: false, fieldValue: 'HALF' })).toEqual({ kind: 'pass' });
    s.key({ key: '7', timeStamp: 70_000, place: 'scan_field', modified: false });
    expect(s.key({ key: 'Tab', timeStamp: 70_004, place: 'scan_field', modified: false, fieldValue: 'FAST7' })).toMatchObject({
      kind: 'code',
      code: 'FAST7',
    });
  });

  it('shortcuts (Ctrl, Alt, Meta) are never part of a code', () => {
    const s = new ScanBurst();
    expect(s.key({ key: 'c', timeStamp: 1, place: 'other', modified: true })).toEqual({ kind: 'pass' });
    expect(s.pending).toBe('');
  });
});
