import { useEffect, useState } from 'preact/hooks';
import { useStore } from '../app/store';
import { Button } from '../ui/Button';
import { commitNow, held, undo } from './undo';

/** The last delivery or failure, with a few seconds to take it back before it is queued. */
export function UndoBar() {
  const list = useStore(held);
  const [, tick] = useState(0);
  useEffect(() => {
    if (!list.length) return;
    const t = setInterval(() => tick((n) => n + 1), 250);
    return () => clearInterval(t);
  }, [list.length]);
  if (!list.length) return null;
  return (
    <div class="undo-bar" role="status" aria-live="polite" data-testid="undo-bar">
      {list.map((h) => (
        <div key={h.id} class="undo-item">
          <span class="what">{h.label}</span>
          <span class="secs">{Math.max(0, Math.ceil((h.deadline - Date.now()) / 1000))}s</span>
          <Button onClick={() => undo(h.id)}>Undo</Button>
          <Button variant="primary" onClick={() => void commitNow(h.id)}>
            OK
          </Button>
        </div>
      ))}
    </div>
  );
}
