import { useEffect, useState } from 'preact/hooks';
import { useStore } from '../app/store';
import type { Notice, OutboxRow, ViewPackage } from '../sync/index';
import { Button } from '../ui/Button';
import { ConfirmDialog } from '../ui/Dialog';
import { toast } from '../ui/toast';
import { engine } from './engine';
import { useOutbox, useSyncStatus } from './hooks';
import { LoginForm } from './Login';
import { retryOffered, storyOfRow } from './refusal';
import { maxAttempts } from './routeCache';
import { reachWords, timeOf, waitingOf } from './SyncChip';

function stateOf(row: OutboxRow): string {
  switch (row.status) {
    case 'held':
      return 'saved on the phone, you can still undo';
    case 'sending':
      return 'sending now';
    case 'rejected':
      return 'refused';
    default:
      return row.attempts ? `tried ${row.attempts}×, will retry` : 'saved on the phone, waiting to send';
  }
}

function Row({ row, copy = null }: { row: OutboxRow; copy?: ViewPackage | null }) {
  const [confirm, setConfirm] = useState<null | { unsent: number }>(null);
  const e = engine();
  const max = useStore(maxAttempts);
  const rejected = row.status === 'rejected';
  const story = rejected ? storyOfRow(row, copy?.status) : null;
  const retry = rejected && retryOffered(row, copy, max);
  const ask = async () => setConfirm({ unsent: await e.unsentFiles(row.id as number) });
  return (
    <li class={`outbox-row ${row.status}`} data-testid="outbox-row" data-status={row.status}>
      <div class="what">{row.label}</div>
      <div class="when muted">
        {timeOf(row.createdAt)} · {stateOf(row)}
      </div>
      {!rejected && row.lastError && <div class="muted small">Last try: {row.lastError}</div>}
      {story && (
        <>
          <div class="refusal" role="alert" data-testid="refusal-what">
            {story.what}
          </div>
          <div class="advice" data-testid="refusal-todo">
            {story.todo}
          </div>
          <div class="muted small">Office said: {row.rejection?.message ?? 'refused'}</div>
          {!retry && (
            <div class="muted small" data-testid="no-retry">
              Sending it again would be refused again{copy ? `: it is ${copy.status.replace(/_/g, ' ')} on your list` : ''}.
            </div>
          )}
          <div class="actions-2">
            {retry && (
              <Button
                class="xl"
                onClick={() =>
                  void e.retryRejected(row.id as number).then((ok) => toast(ok ? 'Queued again' : 'Already handled', ok ? 'ok' : 'info'))
                }
              >
                Retry
              </Button>
            )}
            <Button class="xl" variant="danger" onClick={() => void ask()}>
              Discard
            </Button>
          </div>
        </>
      )}
      {confirm && (
        <ConfirmDialog
          title={confirm.unsent ? 'Lose the photos too?' : 'Discard this action?'}
          danger
          confirmLabel="Discard"
          onClose={() => setConfirm(null)}
          onConfirm={() =>
            void e.discardRejected(row.id as number, confirm.unsent > 0).then(() => {
              setConfirm(null);
              toast('Discarded', 'info');
            })
          }
          message={
            confirm.unsent ? (
              <p data-testid="discard-unsent">
                “{row.label}” has {confirm.unsent} photo{confirm.unsent === 1 ? '' : 's'} or signature the office does NOT have. Discarding
                deletes {confirm.unsent === 1 ? 'it' : 'them'} from this phone for good.
              </p>
            ) : (
              <p>
                “{row.label}” will be removed from this phone. The office keeps its own record of the refusal
                {row.blobRefs.length ? ', with your photos and signature' : ''}.
              </p>
            )
          }
        />
      )}
    </li>
  );
}

/** The phone's current status of each parcel (by id and by label), so a refusal tells the same story as the stop. */
/** The phone's latest copies of the parcels, by id and by code: what a refusal's story and Retry are judged against. */
function useParcelCopies(refused: number): Map<number | string, ViewPackage> {
  const [map, setMap] = useState(new Map<number | string, ViewPackage>());
  useEffect(() => {
    if (!refused) return;
    void engine()
      .pendingView()
      .then((view) =>
        setMap(
          new Map(
            view.flatMap(
              (p) =>
                [
                  [p.id, p],
                  [p.hawb, p],
                ] as [number | string, ViewPackage][],
            ),
          ),
        ),
      );
  }, [refused]);
  return map;
}

function copyOf(map: Map<number | string, ViewPackage>, row: OutboxRow): ViewPackage | null {
  const e = row.effect;
  return (e?.packageId != null ? map.get(e.packageId) : undefined) ?? (e?.hawb != null ? map.get(e.hawb) : undefined) ?? null;
}

/**
 * Refusals the driver has read and acted on go in one go (issue 35: 16 taps for 8). Rows whose
 * photos or signature never reached the office stay: discarding those needs their own decision.
 */
function ClearAll({ rows }: { rows: OutboxRow[] }) {
  const [asking, setAsking] = useState(false);
  const e = engine();
  const clear = async () => {
    let cleared = 0;
    for (const r of rows) if (await e.discardRejected(r.id as number)) cleared += 1;
    const kept = rows.length - cleared;
    setAsking(false);
    toast(kept ? `Cleared ${cleared}; ${kept} kept: their photos are not at the office yet` : `Cleared ${cleared}`, 'info');
  };
  return (
    <>
      <Button class="xl" data-testid="clear-refused" onClick={() => setAsking(true)}>
        Clear all handled ({rows.length})
      </Button>
      {asking && (
        <ConfirmDialog
          title="Clear the refused list?"
          confirmLabel="Clear all"
          onClose={() => setAsking(false)}
          onConfirm={() => void clear()}
          message={
            <p>
              Clear these {rows.length} refusals from this phone once you have done what each says. The office keeps its own record of every
              one. Any with photos the office does not have yet stay on the list.
            </p>
          }
        />
      )}
    </>
  );
}

function Notices() {
  const status = useSyncStatus();
  const [list, setList] = useState<Notice[]>([]);
  useEffect(() => {
    void engine().notices().then(setList);
  }, [status.notices]);
  if (!list.length) return null;
  return (
    <>
      <h2>From the office ({list.length})</h2>
      <ul class="outbox">
        {list.map((n) => (
          <li key={n.id} class="outbox-row notice" data-testid="notice">
            <div class="what">{n.label}</div>
            <div>{n.message}. A supervisor will check it; nothing for you to do unless the office calls.</div>
            <Button class="xl" onClick={() => void engine().dismissNotice(n.id)}>
              OK, understood
            </Button>
          </li>
        ))}
      </ul>
    </>
  );
}

function connection(status: ReturnType<typeof useSyncStatus>): string {
  if (status.reach === 'no_signal') return 'No signal';
  if (status.reach === 'no_answer') return 'Signal, but the office is not answering';
  if (status.reach === 'server_error') return 'The office system has a problem';
  return status.online ? 'Connected to the office' : 'No signal';
}

/** Everything about sending: nothing the driver did is out of sight until the office has it. */
export default function SyncScreen() {
  const status = useSyncStatus();
  const [rows] = useOutbox();
  const [busy, setBusy] = useState(false);
  const waiting = waitingOf(status);
  const rejected = rows.filter((r) => r.status === 'rejected');
  const copies = useParcelCopies(rejected.length);
  const queued = rows.filter((r) => r.status !== 'rejected');
  const reach = reachWords(status);
  return (
    <div class="drv-screen" data-testid="sync-screen">
      <h1>Sync</h1>
      <dl class="sync-facts">
        <div class="wide">
          <dt>Connection</dt>
          <dd data-testid="sync-online" data-reach={status.reach}>
            {connection(status)}
          </dd>
        </div>
        <div>
          <dt>Saved, not sent</dt>
          <dd data-testid="sync-waiting">{waiting}</dd>
        </div>
        <div>
          <dt>Refused</dt>
          <dd data-testid="sync-rejected">{status.rejected}</dd>
        </div>
        <div class="wide">
          <dt>Last synced</dt>
          <dd data-testid="sync-last" data-at={status.lastSyncedAt ?? 0}>
            {timeOf(status.lastSyncedAt)}
          </dd>
        </div>
      </dl>
      {reach && (
        <p class="reach-note" data-testid="reach-note">
          {reach.long}
        </p>
      )}
      {status.resentAfterRestore > 0 && (
        <p class="muted" data-testid="sync-resent">
          The office restored its records: {status.resentAfterRestore} of your earlier action
          {status.resentAfterRestore === 1 ? ' was' : 's were'} sent again so none is lost.
        </p>
      )}
      {status.nextRetryAt && waiting > 0 && (
        <p class="muted">
          Next try at {timeOf(status.nextRetryAt)}
          {status.lastError && !reach ? ` (${status.lastError})` : ''}.
        </p>
      )}
      {status.loginNeeded ? (
        <div class="card stack">
          <strong>Your login has expired. Log in again to send your saved work; nothing is lost.</strong>
          <LoginForm submitLabel="Log in and send" onDone={() => void engine().syncNow()} />
        </div>
      ) : (
        <Button
          variant="primary"
          class="xl"
          busy={busy || status.syncing}
          data-testid="sync-now"
          onClick={() => {
            setBusy(true);
            void engine()
              .release()
              .then(() => engine().syncNow())
              .finally(() => setBusy(false));
          }}
        >
          Send and refresh now
        </Button>
      )}
      <Notices />
      {rejected.length > 0 && <h2>Refused by the office ({rejected.length})</h2>}
      {rejected.length > 1 && <ClearAll rows={rejected} />}
      <ul class="outbox">
        {rejected.map((r) => (
          <Row key={r.id} row={r} copy={copyOf(copies, r)} />
        ))}
      </ul>
      <h2>Waiting ({queued.length})</h2>
      {queued.length === 0 ? (
        <p class="muted">Everything you did has reached the office.</p>
      ) : (
        <ul class="outbox">
          {queued.map((r) => (
            <Row key={r.id} row={r} />
          ))}
        </ul>
      )}
    </div>
  );
}
