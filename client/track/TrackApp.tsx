import { useCallback, useEffect, useState } from 'preact/hooks';
import { readHash, TrackError, trackApi, type RecipientView } from './api';
import { Door } from './Door';
import { DriverMap } from './DriverMap';
import { Instructions } from './Instructions';
import { OptOut } from './OptOut';
import { Proof } from './Proof';
import { Rating } from './Rating';
import { Reschedule } from './Reschedule';
import { Timeline } from './Timeline';
import { clockIn } from './time';

/** While the parcel is out the page refreshes itself (position, stops); otherwise once is enough. */
const POLL_MS = 30_000;

function Headline({ v }: { v: RecipientView }) {
  let detail: string | null = null;
  if (v.status === 'out_for_delivery') {
    if (v.eta) detail = `Arriving between ${clockIn(v.eta.from, v.time_zone)} and ${clockIn(v.eta.to, v.time_zone)}`;
    else if (v.stops_before === 0) detail = 'You are the next stop';
    else if (v.stops_before != null) detail = `${v.stops_before} stop${v.stops_before === 1 ? '' : 's'} before yours`;
  } else if (v.status === 'failed' && v.delivery_date) detail = `Next delivery day: ${v.delivery_date}`;
  return (
    <section class="trk-card trk-status" aria-labelledby="trk-status">
      <p class="trk-eyebrow">
        Parcel {v.hawb}
        {v.suburb ? ` to ${v.suburb}` : ''}
      </p>
      <h1 id="trk-status" class={`trk-state trk-${v.status}`}>
        {v.status_label}
      </h1>
      {detail && <p class="trk-detail">{detail}</p>}
    </section>
  );
}

export function TrackApp() {
  const [{ token, stop }, setHash] = useState(() => readHash(location.hash));
  // Each answer is kept with the link it answers: opening another parcel's link in the same tab never
  // shows the previous parcel while the new one loads, nor lets a late answer for it land.
  const [shown, setShown] = useState<{ token: string; view: RecipientView } | null>(null);
  const [failed, setFailed] = useState<{ token: string; error: string } | null>(null);
  const view = shown && shown.token === token ? shown.view : null;
  const error = failed && failed.token === token ? failed.error : null;

  useEffect(() => {
    const onHash = () => setHash(readHash(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const load = useCallback(async () => {
    if (!token) return;
    try {
      const answer = await trackApi.view(token);
      if (readHash(location.hash).token !== token) return;
      setShown({ token, view: answer });
      setFailed(null);
    } catch (err) {
      if (readHash(location.hash).token !== token) return;
      setFailed({
        token,
        error:
          err instanceof TrackError && err.status === 404
            ? 'This tracking link is not valid. Check the link in your message.'
            : err instanceof TrackError && err.status === 429
              ? 'Too many requests from your connection. Wait a minute and reload.'
              : 'We could not load your parcel. Check your connection and reload.',
      });
    }
  }, [token]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (view?.status !== 'out_for_delivery') return undefined;
    const timer = setInterval(() => {
      void load();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [view?.status, load]);

  if (!token)
    return (
      <main class="trk">
        <section class="trk-card" role="alert">
          <h1>Link not recognised</h1>
          <p>Open the link from your message again; it ends with a long code.</p>
        </section>
      </main>
    );
  if (error && !view)
    return (
      <main class="trk">
        <section class="trk-card" role="alert">
          <h1>Sorry</h1>
          <p>{error}</p>
          <button
            class="trk-btn"
            onClick={() => {
              void load();
            }}
          >
            Try again
          </button>
        </section>
      </main>
    );
  if (!view)
    return (
      <main class="trk" aria-busy="true">
        <p class="trk-loading">Loading your parcel…</p>
      </main>
    );

  return (
    <>
      <header class="trk-brand">
        {view.company.logo && <img src={view.company.logo.url} alt="" class="trk-logo" />}
        <span class="trk-company">{view.company.name}</span>
      </header>
      <main class="trk">
        {error && (
          <p class="trk-note" role="status">
            {error}
          </p>
        )}
        {stop && <OptOut token={token} optedOut={view.opted_out} onDone={load} />}
        <Headline v={view} />
        {view.driver_position && <DriverMap position={view.driver_position} zone={view.time_zone} />}
        {view.failure && (
          <section class="trk-card trk-failure" aria-labelledby="trk-failed">
            <h2 id="trk-failed">We missed you</h2>
            <p>
              {view.failure.reason ? `Reason: ${view.failure.reason}. ` : ''}
              {view.failure.next_step}
            </p>
            {view.reschedule && <Reschedule token={token} window={view.reschedule} current={view.delivery_date} onDone={load} />}
          </section>
        )}
        {view.proof && <Proof proof={view.proof} zone={view.time_zone} />}
        {view.door && <Door token={token} door={view.door} onDone={load} />}
        {view.can_leave_instructions && <Instructions token={token} current={view.instructions} onDone={load} />}
        {(view.can_rate || view.rating) && <Rating token={token} rating={view.rating} onDone={load} />}
        <Timeline events={view.timeline} zone={view.time_zone} />
        {!stop && !view.opted_out && (
          <p class="trk-foot">
            <a href={`#${token}/stop`}>Stop messages about this parcel</a>
          </p>
        )}
        {view.opted_out && !stop && <p class="trk-foot">You will get no more messages about your parcels from {view.company.name}.</p>}
      </main>
    </>
  );
}
