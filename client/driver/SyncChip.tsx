import type { SyncStatus } from '../sync/index';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/**
 * "14:05" today, "24 Nov 18:05" another day, in the phone's time zone. Written out rather than with
 * toLocaleTimeString: the first Intl call loads the locale's data, which on a slow phone costs more
 * than drawing the whole top bar, and the chip is on the first frame of every start.
 */
export function timeOf(ms: number | null): string {
  if (!ms) return 'never';
  const d = new Date(ms);
  const clock = `${two(d.getHours())}:${two(d.getMinutes())}`;
  return d.toDateString() === new Date().toDateString() ? clock : `${d.getDate()} ${MONTHS[d.getMonth()]} ${clock}`;
}

/** Everything on the phone the office does not have yet, held (undo window) included. */
export const waitingOf = (s: SyncStatus) => s.held + s.queued + s.sending;

/** Why nothing is going out, in a driver's words (the Sync screen says it at length). */
export function reachWords(s: SyncStatus): { short: string; long: string } | null {
  switch (s.reach) {
    case 'no_signal':
      return {
        short: 'No signal',
        long: 'No signal: the phone has no network. Your work is saved on the phone and goes when there is signal.',
      };
    case 'no_answer':
      return {
        short: 'Office not answering',
        long: 'The phone has signal but the office system is not answering. Your work is saved on the phone; it keeps trying.',
      };
    case 'server_error':
      return {
        short: 'Office system busy',
        long: 'The office system answered that it cannot take work right now. Your work is saved on the phone; it keeps trying.',
      };
    default:
      return null;
  }
}

/** The sync state in a few words, always on screen: the driver never has to wonder whether work is saved. */
export function SyncChip({ status }: { status: SyncStatus }) {
  const waiting = waitingOf(status);
  const reach = reachWords(status);
  const tone = status.rejected || status.loginNeeded ? 'bad' : reach ? 'off' : waiting ? 'busy' : 'ok';
  const text = status.loginNeeded
    ? `Log in · ${waiting} saved`
    : reach
      ? `${reach.short} · ${waiting} saved`
      : status.sending || (status.syncing && status.queued)
        ? `Sending ${waiting}…`
        : waiting
          ? `${waiting} saved`
          : status.rejected
            ? `${status.rejected} refused`
            : `Synced ${timeOf(status.lastSyncedAt)}`;
  return (
    <a
      class={`sync-chip ${tone}`}
      href="#/driver/sync"
      data-testid="sync-chip"
      data-queued={waiting}
      data-held={status.held}
      data-online={status.online ? 'yes' : 'no'}
      data-reach={status.reach}
      aria-label={reach ? `${reach.long} ${waiting} saved.` : text}
    >
      <span class="dot" aria-hidden="true" />
      {text}
    </a>
  );
}
