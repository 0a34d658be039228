import { useState } from 'preact/hooks';
import { errorMessage } from '../api/client';
import { toast } from './toast';

/**
 * One action at a time behind a button: `busy` while `work` runs (the button shows it and ignores
 * presses); a failure is told in a toast unless the caller handles it (`onError`, e.g. form errors).
 */
export function useBusy(): [boolean, (work: () => Promise<void>, onError?: (err: unknown) => void) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>, onError = (err: unknown) => toast(errorMessage(err), 'bad')) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      onError(err);
    } finally {
      setBusy(false);
    }
  };
  return [busy, run];
}
