import { useState } from 'preact/hooks';
import { TrackError } from './api';

/** One button's request: busy while it runs, the server's message after, its refusal shown as said. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<{ message: string }>, after?: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      setMessage((await action()).message);
      await after?.();
    } catch (err) {
      setError(err instanceof TrackError ? err.message : 'No connection. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return { busy, message, error, run };
}
