import type { SyncStatus } from '../sync/index';

export function timeOf(ms: number | null): string {
  if (!ms) return 'never';
  const d = new Date(ms);
  const sameDay = d.toDateString() === new Date().toDateString();
  return sameDay ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : d.toLocaleString([], { dateStyle: 'short', timeStyle: 'short' });
}

/** The sync state in a few words, always on screen: the driver never has to wonder whether work is saved. */
export function SyncChip({ status }: { status: SyncStatus }) {
  const waiting = status.queued + status.sending;
  const tone = !status.online ? 'off' : status.rejected || status.loginNeeded ? 'bad' : waiting ? 'busy' : 'ok';
  const text = !status.online
    ? `Offline · ${waiting} saved`
    : status.sending || (status.syncing && waiting) ? `Sending ${waiting}…`
      : waiting ? `${waiting} waiting` : `Synced ${timeOf(status.lastSyncedAt)}`;
  return (
    <a class={`sync-chip ${tone}`} href="#/driver/sync" data-testid="sync-chip" data-queued={waiting} data-online={status.online ? 'yes' : 'no'}>
      <span class="dot" aria-hidden="true" />{text}
    </a>
  );
}
