/**
 * Sound and vibration after a scan, so depot staff know the result without looking at the screen:
 * a short high beep for ok, a low double buzz for an error.
 */
let ctx: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof window === 'undefined' || typeof AudioContext === 'undefined') return null;
  try {
    ctx ??= new AudioContext();
    // Browsers start audio suspended until a user gesture; a scan keystroke counts as one.
    if (ctx.state === 'suspended') void ctx.resume();
    return ctx;
  } catch {
    return null;
  }
}

function tone(freq: number, start: number, duration: number, type: OscillatorType, volume: number): void {
  const a = audio();
  if (!a) return;
  const osc = a.createOscillator();
  const gain = a.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  const t = a.currentTime + start;
  gain.gain.setValueAtTime(volume, t);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + duration);
  osc.connect(gain).connect(a.destination);
  osc.start(t);
  osc.stop(t + duration + 0.02);
}

function vibrate(pattern: number | number[]): void {
  if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function') navigator.vibrate(pattern);
}

export type Feedback = 'ok' | 'warn' | 'error';

let muted = typeof localStorage !== 'undefined' && localStorage.getItem('courier.muted') === '1';
export function isMuted(): boolean {
  return muted;
}
export function setMuted(value: boolean): void {
  muted = value;
  localStorage.setItem('courier.muted', value ? '1' : '0');
}

export function feedback(kind: Feedback): void {
  if (!muted) {
    if (kind === 'ok') tone(1760, 0, 0.09, 'sine', 0.25);
    else if (kind === 'warn') {
      tone(880, 0, 0.1, 'triangle', 0.3);
      tone(880, 0.14, 0.1, 'triangle', 0.3);
    } else {
      tone(160, 0, 0.22, 'square', 0.22);
      tone(140, 0.28, 0.3, 'square', 0.22);
    }
  }
  vibrate(kind === 'ok' ? 60 : kind === 'warn' ? [80, 60, 80] : [250, 100, 250]);
}
