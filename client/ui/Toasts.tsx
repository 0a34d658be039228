import { useStore } from '../app/store';
import { dismissToast, toasts } from './toast';

export function Toasts() {
  const list = useStore(toasts);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} class={`toast ${t.tone}`}>
          <span style={{ flex: 1 }}>
            {t.text}
            {t.times > 1 && <span class="toast-times"> ×{t.times}</span>}
          </span>
          <button class="btn" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
