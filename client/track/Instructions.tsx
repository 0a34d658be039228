import { useState } from 'preact/hooks';
import { trackApi } from './api';
import { useAction } from './useAction';

/** Delivery instructions or a safe place; they reach the driver's phone, also when it has no signal. */
export function Instructions({ token, current, onDone }: { token: string; current: string | null; onDone: () => Promise<void> }) {
  const [text, setText] = useState(current ?? '');
  const { busy, message, error, run } = useAction();
  return (
    <section class="trk-card" aria-labelledby="trk-ins">
      <h2 id="trk-ins">Delivery instructions</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => trackApi.instructions(token, text.trim()), onDone);
        }}
      >
        <label for="trk-ins-text">Where should the driver leave it? A safe place, a gate code, a neighbour.</label>
        <textarea
          id="trk-ins-text"
          name="instructions"
          rows={3}
          maxLength={500}
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          placeholder="e.g. behind the side gate"
        />
        <button class="trk-btn" type="submit" disabled={busy || text.trim() === (current ?? '')}>
          {busy ? 'Saving…' : 'Save instructions'}
        </button>
        {message && (
          <p class="trk-ok" role="status">
            {message}
          </p>
        )}
        {error && (
          <p class="trk-err" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
