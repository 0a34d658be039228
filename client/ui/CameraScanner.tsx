import { useEffect, useRef, useState } from 'preact/hooks';
import type { IScannerControls } from '@zxing/browser';
import { Button } from './Button';

/** The camera holds a code in view for many frames; the same code again this soon is the same parcel. */
const REPEAT_MS = 2000;

/**
 * Live camera scanning (Code 128, Code 39, EAN/UPC, QR, Data Matrix, PDF417). @zxing/browser is
 * loaded only when this mounts, so screens that never open the camera do not pay for it.
 */
export function CameraScanner({ onScan, onClose }: { onScan: (code: string) => void; onClose?: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const controls = useRef<IScannerControls | null>(null);
  const handler = useRef(onScan);
  handler.current = onScan;
  const [state, setState] = useState<'starting' | 'running' | 'error'>('starting');
  const [error, setError] = useState('');
  const [torch, setTorch] = useState<boolean | null>(null);

  useEffect(() => {
    let cancelled = false;
    let lastCode = '';
    let lastAt = 0;
    void (async () => {
      try {
        const { BrowserMultiFormatReader } = await import('@zxing/browser');
        if (cancelled || !video.current) return;
        const reader = new BrowserMultiFormatReader();
        const c = await reader.decodeFromConstraints({ video: { facingMode: 'environment' } }, video.current, (result) => {
          if (!result) return;
          const code = result.getText();
          const now = Date.now();
          if (code === lastCode && now - lastAt < REPEAT_MS) return;
          lastCode = code;
          lastAt = now;
          handler.current(code);
        });
        if (cancelled) {
          c.stop();
          return;
        }
        controls.current = c;
        setState('running');
        // Torch is offered only where the track says it can do it (most Android phones, no desktops).
        const caps = c.streamVideoCapabilitiesGet?.((t) => [t]) as (MediaTrackCapabilities & { torch?: boolean }) | undefined;
        if (c.switchTorch && caps?.torch) setTorch(false);
      } catch (err) {
        if (cancelled) return;
        setState('error');
        const name = err instanceof DOMException ? err.name : '';
        setError(
          name === 'NotAllowedError'
            ? 'Camera permission was refused. Allow it in the browser settings, or use the scanner or keyboard.'
            : name === 'NotFoundError'
              ? 'No camera was found on this device.'
              : err instanceof Error
                ? err.message
                : 'The camera could not start.',
        );
      }
    })();
    return () => {
      cancelled = true;
      controls.current?.stop();
      controls.current = null;
    };
  }, []);

  const toggleTorch = async () => {
    const c = controls.current;
    if (!c?.switchTorch || torch === null) return;
    try {
      await c.switchTorch(!torch);
      setTorch(!torch);
    } catch {
      setTorch(null);
    }
  };

  return (
    <div class="camera" aria-label="Camera scanner">
      <video ref={video} muted playsInline aria-hidden="true" />
      {state === 'starting' && (
        <div class="state" style={{ color: '#fff' }}>
          Starting camera…
        </div>
      )}
      {state === 'error' && (
        <div class="state error" role="alert" style={{ background: '#fff' }}>
          {error}
        </div>
      )}
      <div class="row">
        {torch !== null && (
          <Button onClick={() => void toggleTorch()} aria-pressed={torch}>
            {torch ? 'Torch off' : 'Torch on'}
          </Button>
        )}
        {onClose && <Button onClick={onClose}>Close camera</Button>}
      </div>
    </div>
  );
}
