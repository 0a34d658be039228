import { useEffect, useState } from 'preact/hooks';
import { PROOF_SLOTS, type Proof } from '../../../shared/schemas/delivery';
import type { RouteRecord } from '../../../shared/schemas/routes';
import { api } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { Button, LinkButton } from '../../ui/Button';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { ROUTE_PATHS } from './paths';
import './routes.css';
import { AuthImage } from '../../ui/AuthImage';
import { dateTime } from '../../ui/when';

interface Pod {
  route: RouteRecord;
  delivered: number;
  failed: number;
  results: Proof[];
}

/** Proof of delivery of a route's delivered parcels, in sequence order, printable. */
export default function RoutePod({ id }: { id: number }) {
  const [pod, setPod] = useState<Pod | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    api.get<Pod>(ROUTE_PATHS.pod(id)).then(
      (d) => {
        if (live) {
          setPod(d);
          setError(null);
        }
      },
      (e: unknown) => {
        if (live) setError(e);
      },
    );
    return () => {
      live = false;
    };
  }, [id, tick]);
  if (error) return <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />;
  if (!pod) return <Loading />;
  return (
    <section aria-labelledby="pod-title">
      <div class="page-head">
        <h1 id="pod-title">Proof of delivery — {pod.route.name}</h1>
        <span class="spacer" />
        <Button onClick={() => window.print()}>Print</Button>
        <LinkButton href={`#/routes/${id}`}>Back to the route</LinkButton>
      </div>
      <p>
        <strong>{pod.delivered}</strong> delivered, <strong>{pod.failed}</strong> failed, of {pod.route.package_count} parcel(s) ·{' '}
        {pod.route.date} · {pod.route.driver_name ?? 'no driver'}
      </p>
      {pod.results.length === 0 ? (
        <div class="card">
          <Empty title="No delivered parcel yet">Proofs appear here once the driver delivers.</Empty>
        </div>
      ) : (
        <div class="pod-grid">
          {pod.results.map((p) => {
            const slots = PROOF_SLOTS.filter((s) => p[s] != null);
            return (
              <article key={p.package} class="card pod">
                <div class="row">
                  <a class="mono" href={`#/packages/${p.package}`}>
                    {p.hawb}
                  </a>
                  {p.flagged && <Badge tone="bad">Flagged</Badge>}
                  {p.forced && <Badge tone="warn">Forced</Badge>}
                </div>
                <dl class="dl">
                  <dt>Delivered</dt>
                  <dd>{dateTime(p.delivered_at)}</dd>
                  <dt>Received by</dt>
                  <dd>{p.recipient_name ?? '—'}</dd>
                  <dt>Driver</dt>
                  <dd>{p.driver?.name ?? '—'}</dd>
                  {p.note && (
                    <>
                      <dt>Note</dt>
                      <dd>{p.note}</dd>
                    </>
                  )}
                  {p.flag_reason && (
                    <>
                      <dt>Flag</dt>
                      <dd>{p.flag_reason}</dd>
                    </>
                  )}
                </dl>
                {slots.length > 0 ? (
                  <div class="photos">
                    {slots.map((s) => (
                      <AuthImage
                        key={s}
                        url={p[s]!.url}
                        alt={s === 'signature' ? `Signature for ${p.hawb}` : `Photo ${s.replace('photo_', '')} of ${p.hawb}`}
                      />
                    ))}
                  </div>
                ) : (
                  <p class="muted">No photos or signature.</p>
                )}
              </article>
            );
          })}
        </div>
      )}
    </section>
  );
}
