import { useState } from 'preact/hooks';
import { Button } from '../../ui/Button';

async function copy(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (plain http, or permission refused): select it so Ctrl+C works.
    input?.select();
    return false;
  }
}

/** A secret the server shows once: read-only, selectable, with a Copy button and a plain warning. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'select'>('idle');
  let input: HTMLInputElement | null = null;
  return (
    <div class="shown-once" data-testid="shown-once">
      <p class="warn-note" role="note">
        <strong>Copy it now.</strong> It is shown only this once; the server keeps only a fingerprint of it.
      </p>
      <label class="label" for="shown-once-value">
        {label}
      </label>
      <div class="row" style={{ flexWrap: 'nowrap' }}>
        <input
          id="shown-once-value"
          ref={(el) => {
            input = el;
          }}
          class="input mono"
          readOnly
          value={value}
          onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
          data-testid="secret-value"
        />
        <Button variant="primary" onClick={() => void copy(value, input).then((ok) => setState(ok ? 'copied' : 'select'))}>
          Copy
        </Button>
      </div>
      <span class="muted" aria-live="polite">
        {state === 'copied' ? 'Copied to the clipboard.' : state === 'select' ? 'Selected: press Ctrl+C (⌘C) to copy.' : ''}
      </span>
    </div>
  );
}
