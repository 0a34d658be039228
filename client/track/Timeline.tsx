import type { RecipientView } from './api';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

/** Newest first, as a recipient reads it. */
export function Timeline({ events }: { events: RecipientView['timeline'] }) {
  if (!events.length) return null;
  return (
    <section class="trk-card" aria-labelledby="trk-history">
      <h2 id="trk-history">History</h2>
      <ol class="trk-timeline" reversed>
        {events
          .slice()
          .reverse()
          .map((e) => (
            <li key={`${e.status}-${e.time}`}>
              <strong>{e.label}</strong> <time dateTime={e.time}>{when(e.time)}</time>
            </li>
          ))}
      </ol>
    </section>
  );
}
