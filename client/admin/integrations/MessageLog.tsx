import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { MessageLog as MessageLogAnswer } from '../../../shared/schemas/recipients';
import { api } from '../../api/client';
import { Badge, type Tone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorState, Loading } from '../../ui/States';
import { dateTime } from '../../ui/when';

type Answer = z.infer<typeof MessageLogAnswer>;

const STATUS: Record<string, { label: string; tone: Tone }> = {
  pending: { label: 'Waiting', tone: 'info' },
  sending: { label: 'Sending', tone: 'info' },
  sent: { label: 'Sent', tone: 'ok' },
  logged: { label: 'Not sent (no mail or SMS set up)', tone: 'warn' },
  dead: { label: 'Failed', tone: 'bad' },
  skipped: { label: 'Skipped (opted out)', tone: 'muted' },
  uncertain: { label: 'Unsure (stopped mid-send)', tone: 'bad' },
};
const KIND: Record<string, string> = {
  out_for_delivery: 'Out for delivery',
  arriving_soon: 'Arriving soon',
  delivered: 'Delivered',
  failed: 'Missed delivery',
  returned_to_sender: 'Returned to sender',
};

/** Recipient notices, newest first: one parcel's (`pkg`), or a company's (`company`, or the caller's own). */
export function MessageLog({
  pkg,
  company,
  title = 'Messages to recipients',
}: {
  pkg?: number;
  company?: number | string;
  title?: string;
}) {
  const [data, setData] = useState<Answer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [failedOnly, setFailedOnly] = useState(false);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    const q = new URLSearchParams({ page_size: '50' });
    if (pkg != null) q.set('package', String(pkg));
    if (company != null && company !== '') q.set('company', String(company));
    if (failedOnly) q.set('status', 'failed');
    setError(null);
    api.get<Answer>(`recipient-messages/?${q}`).then(
      (d) => {
        if (live) setData(d);
      },
      (err: unknown) => {
        if (live) setError(err);
      },
    );
    return () => {
      live = false;
    };
  }, [pkg, company, failedOnly, tick]);
  return (
    <div class="card" data-testid="message-log">
      <div class="row">
        <h2 style={{ margin: 0 }}>{title}</h2>
        <span class="spacer" />
        <label class="row" style={{ gap: '0.35rem' }}>
          <input type="checkbox" checked={failedOnly} onChange={(e) => setFailedOnly((e.currentTarget as HTMLInputElement).checked)} />{' '}
          Failed only
        </label>
        <Button size="small" onClick={() => setTick((n) => n + 1)}>
          Refresh
        </Button>
      </div>
      {error ? (
        <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <p class="muted">{failedOnly ? 'No failed messages.' : 'No messages yet.'}</p>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th>When</th>
                {pkg == null && <th>Parcel</th>}
                <th>Message</th>
                <th>To</th>
                <th>Outcome</th>
              </tr>
            </thead>
            <tbody>
              {data.results.map((m) => {
                const s = STATUS[m.status] ?? { label: m.status, tone: 'muted' as Tone };
                return (
                  <tr key={m.id} data-status={m.status}>
                    <td>{dateTime(m.sent_at ?? m.created_at)}</td>
                    {pkg == null && (
                      <td>
                        {m.package != null ? (
                          <a href={`#/packages/${m.package}`} class="mono">
                            {m.hawb ?? `#${m.package}`}
                          </a>
                        ) : (
                          '—'
                        )}
                      </td>
                    )}
                    <td>
                      {KIND[m.kind] ?? m.kind} · {m.channel === 'sms' ? 'SMS' : 'E-mail'}
                    </td>
                    <td class="mono" style={{ overflowWrap: 'anywhere' }}>
                      {m.to}
                    </td>
                    <td>
                      <Badge tone={s.tone}>{s.label}</Badge>
                      {m.last_error && <div class="muted">{m.last_error}</div>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {data.count > data.results.length && (
            <p class="muted">
              Showing the newest {data.results.length} of {data.count}.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
