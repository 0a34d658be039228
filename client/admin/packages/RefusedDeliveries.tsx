import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { RefusedDelivery } from '../../../shared/schemas/delivery';
import { api } from '../../api/client';
import { AuthImage } from '../../ui/AuthImage';
import { dateTime } from '../../ui/when';

type Refused = z.infer<typeof RefusedDelivery>;

/**
 * Deliveries of this parcel the server refused (cancelled, final, out of attempts while the driver
 * was offline), with the proof the driver recorded: what the supervisor needs to clear the flag.
 * Shown only to roles that may read them (others get 403 and see nothing).
 */
export function RefusedDeliveries({ id }: { id: number }) {
  const [list, setList] = useState<Refused[]>([]);
  useEffect(() => {
    let live = true;
    api.get<{ results: Refused[] }>(`package-delivered/${id}/refused/`).then(
      (r) => {
        if (live) setList(r.results);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id]);
  if (!list.length) return null;
  return (
    <div class="card" data-testid="refused-deliveries">
      <h2 style={{ marginTop: 0 }}>Refused deliveries ({list.length})</h2>
      {list.map((r) => (
        <div key={r.id} class="stack">
          <dl class="dl">
            <dt>When</dt>
            <dd>
              {dateTime(r.occurred_at)} (received {dateTime(r.received_at)})
            </dd>
            <dt>Why refused</dt>
            <dd>{r.message}</dd>
            <dt>Received by</dt>
            <dd>{r.recipient_name ?? '—'}</dd>
            {r.note && (
              <>
                <dt>Note</dt>
                <dd>{r.note}</dd>
              </>
            )}
          </dl>
          {r.files.length > 0 && (
            <div class="photos">
              {r.files.map((f) => (
                <AuthImage
                  key={f.id}
                  linked
                  url={f.url}
                  alt={f.slot === 'signature' ? 'Signature' : `Photo ${f.slot.replace('photo_', '')}`}
                />
              ))}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}
