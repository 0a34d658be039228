import { useEffect, useRef } from 'preact/hooks';
import { Button } from '../ui/Button';

export interface SignatureHandle {
  toBlob(): Promise<Blob | null>;
  clear(): void;
}

/**
 * A signature drawn with a finger, a stylus or a mouse (pointer events, so one code path). The
 * canvas is sized in device pixels for crisp lines and exported as PNG only if something was drawn.
 */
export function SignaturePad({
  handle,
  onInk,
  initial,
}: {
  handle: { current: SignatureHandle | null };
  onInk: (has: boolean) => void;
  initial?: Blob | null;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const ink = useRef(false);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const ratio = Math.max(1, window.devicePixelRatio || 1);
    const box = c.getBoundingClientRect();
    c.width = Math.round(box.width * ratio);
    c.height = Math.round(box.height * ratio);
    const ctx = c.getContext('2d');
    if (!ctx) return;
    const blank = () => {
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, c.width, c.height);
    };
    blank();
    ctx.lineWidth = 3 * ratio;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#0a0f1a';
    if (initial) {
      void createImageBitmap(initial).then((bmp) => {
        ctx.drawImage(bmp, 0, 0, c.width, c.height);
        ink.current = true;
        onInk(true);
      });
    }
    let drawing = false;
    const at = (e: PointerEvent) => {
      const r = c.getBoundingClientRect();
      return [(e.clientX - r.left) * ratio, (e.clientY - r.top) * ratio] as const;
    };
    const down = (e: PointerEvent) => {
      drawing = true;
      c.setPointerCapture(e.pointerId);
      const [x, y] = at(e);
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x + 0.1, y + 0.1);
      ctx.stroke();
      e.preventDefault();
    };
    const move = (e: PointerEvent) => {
      if (!drawing) return;
      const [x, y] = at(e);
      ctx.lineTo(x, y);
      ctx.stroke();
      if (!ink.current) {
        ink.current = true;
        onInk(true);
      }
    };
    const up = () => {
      drawing = false;
    };
    c.addEventListener('pointerdown', down);
    c.addEventListener('pointermove', move);
    c.addEventListener('pointerup', up);
    c.addEventListener('pointercancel', up);
    handle.current = {
      toBlob: () => new Promise((resolve) => (ink.current ? c.toBlob((b) => resolve(b), 'image/png') : resolve(null))),
      clear: () => {
        blank();
        ink.current = false;
        onInk(false);
      },
    };
    return () => {
      c.removeEventListener('pointerdown', down);
      c.removeEventListener('pointermove', move);
      c.removeEventListener('pointerup', up);
      c.removeEventListener('pointercancel', up);
    };
  }, []);

  return (
    <div class="signature">
      {/* touch-action none: a finger drawing must not scroll the page */}
      <canvas ref={canvas} data-testid="signature-pad" aria-label="Signature: draw with your finger" style={{ touchAction: 'none' }} />
      <Button onClick={() => handle.current?.clear()}>Clear signature</Button>
    </div>
  );
}
