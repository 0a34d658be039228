import { useEffect, useState } from 'preact/hooks';
import type { Attempt, Proof } from '../../shared/schemas/delivery';
import type { Package } from '../sync/index';
import { StatusBadge } from '../ui/Badge';
import { BigLink } from './BigLink';
import { engine } from './engine';
import { addressOf } from './maps';
import { OnlineState } from './OnlineState';
import { useOnline } from './useOnline';
import { dateTime } from '../ui/when';

interface EventRow {
  id: number;
  action: string;
  to_status: string | null;
  occurred_at: string;
  actor: { name: string } | null;
}
interface Detail {
  package: Package;
  events: EventRow[];
  attempts: Attempt[];
  proof: Proof | null;
}

/** An <img> cannot send the bearer token, so proof images are fetched and shown as blob URLs. */
function ProofImage({ url, alt }: { url: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    void (async () => {
      const t = (await engine().db.meta.get('token'))?.value;
      const res = await fetch(url, { headers: typeof t === 'string' ? { authorization: `Bearer ${t}` } : {} });
      if (res.ok) {
        made = URL.createObjectURL(await res.blob());
        setSrc(made);
      }
    })().catch(() => undefined);
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  return src ? <img src={src} alt={alt} /> : <div class="thumb-missing">{alt}</div>;
}

const SLOTS = ['photo_one', 'photo_two', 'photo_three', 'photo_four', 'photo_five', 'signature'] as const;

export default function HistoryDetail({ id }: { id: number }) {
  const res = useOnline<Detail>(`history/${id}/`);
  return (
    <div class="drv-screen">
      <OnlineState {...res}>
        {(d) => (
          <>
            <h1>
              <span class="mono">{d.package.hawb}</span> <StatusBadge status={d.package.status} />
            </h1>
            <p>
              {d.package.customer_name} · {addressOf(d.package)}
            </p>
            {d.proof && (
              <>
                <h2>Proof of delivery</h2>
                <p>
                  {d.proof.recipient_name ? `Received by ${d.proof.recipient_name}` : 'No recipient name'}
                  {d.proof.note ? ` · ${d.proof.note}` : ''}
                </p>
                <div class="thumbs">
                  {SLOTS.map((s) => {
                    const f = d.proof?.[s];
                    return f ? <ProofImage key={s} url={f.url} alt={s.replace('_', ' ')} /> : null;
                  })}
                </div>
              </>
            )}
            {d.attempts.length > 0 && (
              <>
                <h2>Attempts</h2>
                <ul class="plain">
                  {d.attempts.map((a) => (
                    <li key={a.id}>
                      #{a.attempt_no} {a.reason}
                      {a.note ? ` — ${a.note}` : ''} · {dateTime(a.occurred_at)}
                    </li>
                  ))}
                </ul>
              </>
            )}
            <h2>Events</h2>
            <ol class="timeline">
              {d.events.map((e: EventRow) => (
                <li key={e.id}>
                  <strong>{e.action.replace(/_/g, ' ')}</strong> {e.to_status ? `→ ${e.to_status.replace(/_/g, ' ')}` : ''}
                  <div class="muted small">
                    {dateTime(e.occurred_at)}
                    {e.actor ? ` · ${e.actor.name}` : ''}
                  </div>
                </li>
              ))}
            </ol>
          </>
        )}
      </OnlineState>
      <BigLink href="#/driver/history">Back to history</BigLink>
    </div>
  );
}
