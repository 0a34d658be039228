import { useState } from 'preact/hooks';
import { api, errorMessage } from '../../api/client';
import { Button } from '../../ui/Button';

interface Link {
  url: string | null;
  warning: string | null;
}

/**
 * "Copy tracking link": asks the server for the parcel's unguessable link (made on first ask) and puts
 * it on the clipboard; where the clipboard is refused (plain http), the link is shown selected instead.
 */
export function TrackingLinkButton({ id }: { id: number }) {
  const [state, setState] = useState<{ note: string; url?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const link = await api.get<Link>(`package/${id}/tracking-link/`);
      if (!link.url) {
        setState({ note: link.warning ?? 'This server has no public address (PUBLIC_URL), so it cannot make links.' });
        return;
      }
      try {
        await navigator.clipboard.writeText(link.url);
        setState({ note: 'Tracking link copied.', url: link.url });
      } catch {
        setState({ note: 'Select the link and copy it (Ctrl+C / ⌘C).', url: link.url });
      }
    } catch (err) {
      setState({ note: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="tracking-link">
      <Button size="small" busy={busy} onClick={() => void run()}>
        Copy tracking link
      </Button>
      {state && (
        <span role="status" class="muted" data-testid="tracking-link-note" style={{ marginLeft: '0.5rem' }}>
          {state.note}
          {state.url && (
            <input
              class="input mono"
              readOnly
              value={state.url}
              aria-label="Tracking link"
              data-testid="tracking-link"
              style={{ marginTop: '0.35rem', maxWidth: '100%' }}
              ref={(el) => el?.select()}
            />
          )}
        </span>
      )}
    </span>
  );
}
