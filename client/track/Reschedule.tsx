import { useState } from 'preact/hooks';
import { trackApi } from './api';
import { useAction } from './useAction';

/** The days the company allows, as big buttons (no tiny calendar on a phone). */
function days(earliest: string, latest: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${earliest}T00:00:00Z`); t <= Date.parse(`${latest}T00:00:00Z`) && out.length < 31; t += 86_400_000) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}
const label = (d: string, i: number) =>
  `${i === 0 ? 'Tomorrow, ' : ''}${new Date(`${d}T12:00:00Z`).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })}`;

export function Reschedule({
  token,
  window,
  current,
  onDone,
}: {
  token: string;
  window: { earliest: string; latest: string };
  current: string | null;
  onDone: () => Promise<void>;
}) {
  const [picked, setPicked] = useState<string | null>(null);
  const { busy, message, error, run } = useAction();
  return (
    <form
      class="trk-days"
      onSubmit={(e) => {
        e.preventDefault();
        if (picked) void run(() => trackApi.reschedule(token, picked), onDone);
      }}
    >
      <fieldset>
        <legend>Choose another day</legend>
        <div class="trk-day-grid">
          {days(window.earliest, window.latest).map((d, i) => (
            <label key={d} class={`trk-day${picked === d ? ' picked' : ''}${current === d ? ' current' : ''}`}>
              <input type="radio" name="day" value={d} checked={picked === d} onChange={() => setPicked(d)} />
              {label(d, i)}
            </label>
          ))}
        </div>
      </fieldset>
      <button class="trk-btn" type="submit" disabled={!picked || busy}>
        {busy ? 'Saving…' : 'Deliver on this day'}
      </button>
      {message && (
        <p class="trk-ok" role="status">
          {message}
        </p>
      )}
      {error && (
        <p class="trk-err" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
