import type { RecipientView } from './api';
import { whenIn } from './time';

/** Newest first, as a recipient reads it. */
export function Timeline({ events, zone }: { events: RecipientView['timeline']; zone: string }) {
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
              <strong>{e.label}</strong> <time dateTime={e.time}>{whenIn(e.time, zone)}</time>
            </li>
          ))}
      </ol>
    </section>
  );
}
