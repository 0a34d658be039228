import { useState } from 'preact/hooks';
import type { OutboxRow } from '../sync/index';
import { Button } from '../ui/Button';
import { ConfirmDialog } from '../ui/Dialog';
import { toast } from '../ui/toast';
import { engine } from './engine';
import { useOutbox, useSyncStatus } from './hooks';
import { LoginForm } from './Login';
import { timeOf } from './SyncChip';

/** What the driver can do about a refusal, by the server's error code. */
function advice(row: OutboxRow): string {
  switch (row.rejection?.code) {
    case 'invalid_transition': return 'The parcel changed at the office meanwhile (delivered, returned or reassigned). Call the office; discard once they have it right. Retrying will be refused again.';
    case 'not_yours': return 'The parcel was given to another driver. Tell the office, then discard.';
    case 'not_found': return 'The office has no parcel of yours with this code. Check the label and tell the office, then discard.';
    case 'file_lost': return 'A photo of this action is gone from the phone. Discard it and record the delivery again.';
    case 'validation_error': return 'The office could not accept what was sent. Retry once; if it comes back, discard and raise a support ticket.';
    default: return 'Retry when the office has fixed the problem, or discard it.';
  }
}

function Row({ row }: { row: OutboxRow }) {
  const [confirm, setConfirm] = useState(false);
  const e = engine();
  const rejected = row.status === 'rejected';
  return (
    <li class={`outbox-row ${row.status}`} data-testid="outbox-row" data-status={row.status}>
      <div class="what">{row.label}</div>
      <div class="when muted">{timeOf(row.createdAt)} · {row.status === 'sending' ? 'sending now' : rejected ? 'refused' : row.attempts ? `tried ${row.attempts}×, will retry` : 'waiting'}</div>
      {!rejected && row.lastError && <div class="muted small">Last try: {row.lastError}</div>}
      {rejected && (
        <>
          <div class="refusal" role="alert">Office said: {row.rejection?.message ?? 'refused'}</div>
          <div class="advice">{advice(row)}</div>
          <div class="actions-2">
            <Button class="xl" onClick={() => void e.retryRejected(row.id as number).then((ok) => toast(ok ? 'Queued again' : 'Already handled', ok ? 'ok' : 'info'))}>Retry</Button>
            <Button class="xl" variant="danger" onClick={() => setConfirm(true)}>Discard</Button>
          </div>
        </>
      )}
      {confirm && (
        <ConfirmDialog title="Discard this action?" danger confirmLabel="Discard" onClose={() => setConfirm(false)}
          onConfirm={() => void e.discardRejected(row.id as number).then(() => { setConfirm(false); toast('Discarded', 'info'); })}
          message={<p>“{row.label}” will be removed from this phone. The office keeps its own record of the refusal.</p>} />
      )}
    </li>
  );
}

/** Everything about sending: nothing the driver did is out of sight until the office has it. */
export default function SyncScreen() {
  const status = useSyncStatus();
  const [rows] = useOutbox();
  const [busy, setBusy] = useState(false);
  const waiting = status.queued + status.sending;
  const rejected = rows.filter((r) => r.status === 'rejected');
  const queued = rows.filter((r) => r.status !== 'rejected');
  return (
    <div class="drv-screen" data-testid="sync-screen">
      <h1>Sync</h1>
      <dl class="sync-facts">
        <div><dt>Connection</dt><dd data-testid="sync-online">{status.online ? 'Online' : 'Offline'}</dd></div>
        <div><dt>Waiting to send</dt><dd data-testid="sync-waiting">{waiting}</dd></div>
        <div><dt>Refused</dt><dd data-testid="sync-rejected">{status.rejected}</dd></div>
        <div><dt>Last synced</dt><dd>{timeOf(status.lastSyncedAt)}</dd></div>
      </dl>
      {status.resentAfterRestore > 0 && (
        <p class="muted" data-testid="sync-resent">The office restored its records: {status.resentAfterRestore} of your earlier action{status.resentAfterRestore === 1 ? ' was' : 's were'} sent again so none is lost.</p>
      )}
      {status.nextRetryAt && waiting > 0 && <p class="muted">Next try at {timeOf(status.nextRetryAt)}{status.lastError ? ` (${status.lastError})` : ''}.</p>}
      {status.loginNeeded ? (
        <div class="card stack">
          <strong>Your login has expired. Log in again to send your saved work; nothing is lost.</strong>
          <LoginForm submitLabel="Log in and send" onDone={() => void engine().syncNow()} />
        </div>
      ) : (
        <Button variant="primary" class="xl" busy={busy || status.syncing} data-testid="sync-now"
          onClick={() => { setBusy(true); void engine().syncNow().finally(() => setBusy(false)); }}>Send and refresh now</Button>
      )}
      {rejected.length > 0 && <h2>Refused by the office ({rejected.length})</h2>}
      <ul class="outbox">{rejected.map((r) => <Row key={r.id} row={r} />)}</ul>
      <h2>Waiting ({queued.length})</h2>
      {queued.length === 0 ? <p class="muted">Everything you did has reached the office.</p> : <ul class="outbox">{queued.map((r) => <Row key={r.id} row={r} />)}</ul>}
    </div>
  );
}
