import { useEffect, useRef } from 'preact/hooks';

export interface ScannerOptions {
  /** Called with each complete code. */
  onScan: (code: string) => void;
  enabled?: boolean;
  /** Keystrokes further apart than this are a person typing, not a scanner. */
  maxGapMs?: number;
  minLength?: number;
}

/**
 * Keyboard-wedge scanners type the code fast and press Enter. This listens on the whole document, so
 * a scan lands wherever the focus is; keys typed into an ordinary input by a person (slower than
 * maxGapMs) are left alone. Inputs marked `data-scan-input` are the exception: they are the scan
 * field itself, so their Enter submits whatever was typed, fast or slow.
 */
export function useScanner({ onScan, enabled = true, maxGapMs = 50, minLength = 3 }: ScannerOptions): void {
  const handler = useRef(onScan);
  handler.current = onScan;
  useEffect(() => {
    if (!enabled) return;
    let buffer = '';
    let last = 0;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.altKey || e.metaKey) return;
      const target = e.target as HTMLElement | null;
      const inScanField = target?.dataset?.scanInput !== undefined;
      const inOtherField = !inScanField && !!target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
      const now = performance.now();
      if (e.key === 'Enter') {
        if (inScanField) { buffer = ''; return; } // the scan field's own form submits it
        const code = buffer.trim();
        const fresh = now - last <= maxGapMs * 4;
        buffer = '';
        if (code.length >= minLength && fresh) {
          e.preventDefault();
          handler.current(code);
        }
        return;
      }
      if (e.key.length !== 1) return;
      // A pause means what came before was typing, not a scan: start afresh.
      if (now - last > maxGapMs) buffer = '';
      if (inOtherField) { last = now; return; }
      buffer += e.key;
      last = now;
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [enabled, maxGapMs, minLength]);
}
