import { trackApi } from './api';
import { useAction } from './useAction';

/** A button, not the link itself: mail scanners that open links must not unsubscribe anyone. */
export function OptOut({ token, optedOut, onDone }: { token: string; optedOut: boolean; onDone: () => Promise<void> }) {
  const { busy, message, error, run } = useAction();
  return (
    <section class="trk-card trk-optout" aria-labelledby="trk-stop">
      <h2 id="trk-stop">Stop messages</h2>
      {optedOut ? (
        <p role="status">{message ?? 'You will get no more messages. This page keeps working.'}</p>
      ) : (
        <>
          <p>Stop e-mails and text messages about this parcel and later ones from this sender.</p>
          <button
            class="trk-btn trk-danger"
            type="button"
            disabled={busy}
            onClick={() => {
              void run(() => trackApi.optOut(token), onDone);
            }}
          >
            {busy ? 'Stopping…' : 'Stop all messages'}
          </button>
        </>
      )}
      {error && (
        <p class="trk-err" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
