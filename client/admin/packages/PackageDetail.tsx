import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import { PROOF_SLOTS, type PackageEvent, type Proof } from '../../../shared/schemas/delivery';
import { isFinal, statusLabel } from '../../../shared/lifecycle';
import { ApiError, api } from '../../api/client';
import { PATHS } from '../../api/paths';
import { Badge, StatusBadge } from '../../ui/Badge';
import { LinkButton } from '../../ui/Button';
import { ErrorState, Loading } from '../../ui/States';
import type { PackageRow } from './columns';
import { AuthImage } from '../../ui/AuthImage';
import { RefusedDeliveries } from './RefusedDeliveries';
import type { Session } from '../../app/session';
import { PackageActions } from './actions/PackageActions';
import { PricingCard } from './actions/PricingCard';
import { eventLabel } from './actions/eventLabel';
import { LocationCard } from './LocationCard';
import { CodCard } from './CodCard';
import { TrackingLinkButton } from './TrackingLinkButton';
import { MessageLog } from '../integrations/MessageLog';
import { dateTime } from '../../ui/when';

/** Who may move a parcel's pin (server: PUT package/{id}/location/). */
const PINNERS = new Set(['super_admin', 'admin', 'supervisor']);

type Event = z.infer<typeof PackageEvent>;

/** An optional part of the page: a 404 means "this server has no such data", not an error. */
async function optional<T>(path: string): Promise<T | null> {
  try {
    return await api.get<T>(path);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 403)) return null;
    throw err;
  }
}

const FIELDS: [keyof PackageRow, string][] = [
  ['customer_name', 'Customer'],
  ['customer_phone', 'Phone'],
  ['customer_address', 'Address'],
  ['postcode', 'Postcode'],
  // What the shipper typed, beside where master data placed it (issue 36: it was hidden).
  ['postcode_name', 'Place (as the shipper wrote it)'],
  ['suburb_name', 'Suburb'],
  ['zone_name', 'Zone'],
  ['company_name', 'Company'],
  ['description_of_goods', 'Goods'],
  ['count', 'Pieces'],
  ['weight', 'Weight'],
  ['price', 'Price'],
  ['delivery_date', 'Delivery date'],
  ['shipper_name', 'Shipper'],
  ['created_at', 'Created'],
];

export default function PackageDetail({ id, session }: { id: number; session?: Session }) {
  const [pkg, setPkg] = useState<PackageRow | null>(null);
  const [events, setEvents] = useState<Event[] | null>(null);
  const [proof, setProof] = useState<Proof | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let live = true;
    setError(null);
    api.get<PackageRow>(PATHS.package(id)).then(
      (p) => {
        if (live) setPkg(p);
      },
      (err: unknown) => {
        if (live) setError(err);
      },
    );
    optional<{ events: Event[]; proof: Proof | null }>(PATHS.packageHistory(id)).then(
      (r) => {
        if (!live || !r) return;
        setEvents(r.events);
        setProof(r.proof);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id, tick]);

  if (error) return <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />;
  if (!pkg) return <Loading />;
  const slots = proof ? PROOF_SLOTS.filter((s) => proof[s] != null) : [];
  return (
    <section class="stack" aria-labelledby="package-title">
      <div class="page-head">
        <h1 id="package-title">
          <span class="mono">{pkg.hawb}</span>
        </h1>
        <StatusBadge status={pkg.status} />
        {/* A delivered, returned or cancelled parcel is off the van whatever its last scan said. */}
        {pkg.is_scanned && !isFinal(pkg.status) && <Badge tone="info">On van</Badge>}
        <span class="spacer" />
        {session && session.user.role !== 'driver' && <TrackingLinkButton id={id} />}
        <LinkButton href="#/packages">Back to packages</LinkButton>
      </div>
      {session && <PackageActions pkg={pkg} role={session.user.role} onChanged={() => setTick((n) => n + 1)} />}
      {session && <PricingCard pkg={pkg} role={session.user.role} version={tick} onChanged={() => setTick((n) => n + 1)} />}
      <div class="grid-2">
        <div class="card">
          <h2 style={{ marginTop: 0 }}>Details</h2>
          <dl class="dl">
            {FIELDS.map(([key, label]) => {
              const v = pkg[key];
              const text =
                v == null || v === ''
                  ? '—'
                  : key === 'created_at'
                    ? dateTime(String(v))
                    : // Major units in the company's currency, written as the Price card writes them (9.90, not 9.9).
                      key === 'price'
                      ? Number(v).toFixed(2)
                      : String(v);
              return [<dt key={`${key}-t`}>{label}</dt>, <dd key={`${key}-d`}>{text}</dd>];
            })}
            <dt>Driver</dt>
            <dd>{pkg.assigned_to?.name ?? 'Unassigned'}</dd>
          </dl>
        </div>
        <div class="card">
          <h2 style={{ marginTop: 0 }}>Status history</h2>
          {events === null ? (
            <p class="muted">No history is available for this package.</p>
          ) : events.length === 0 ? (
            <p class="muted">No events yet.</p>
          ) : (
            <ol class="timeline">
              {events.map((e) => (
                <li key={e.id}>
                  <strong>{eventLabel(e.action, e.to_status ? statusLabel(e.to_status) : null)}</strong>
                  <div class="muted">
                    {dateTime(e.occurred_at)}
                    {e.actor ? ` · ${e.actor.name}` : ''}
                  </div>
                  {e.note && <div>{e.note}</div>}
                </li>
              ))}
            </ol>
          )}
          {pkg.package_failed_delivery_status.length > 0 && (
            <>
              <h3>Failed attempts</h3>
              <ul>
                {pkg.package_failed_delivery_status.map((f) => (
                  <li key={f.id}>
                    {f.name} · {dateTime(f.created_at)}
                    {f.note ? ` — ${f.note}` : ''}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      </div>
      <CodCard key={`cod-${tick}`} id={id} session={session} />
      <LocationCard id={id} version={tick} canPin={PINNERS.has(session?.user.role ?? '')} onMoved={() => setTick((n) => n + 1)} />
      {proof && (
        <div class="card">
          <h2 style={{ marginTop: 0 }}>Proof of delivery</h2>
          <dl class="dl">
            <dt>Delivered</dt>
            <dd>{dateTime(proof.delivered_at)}</dd>
            <dt>Received by</dt>
            <dd>{proof.recipient_name ?? '—'}</dd>
            <dt>Driver</dt>
            <dd>{proof.driver?.name ?? '—'}</dd>
            {proof.note && (
              <>
                <dt>Note</dt>
                <dd>{proof.note}</dd>
              </>
            )}
            {proof.flagged && (
              <>
                <dt>Flag</dt>
                <dd>
                  <Badge tone="bad">Flagged</Badge> {proof.flag_reason}
                </dd>
              </>
            )}
          </dl>
          {slots.length > 0 ? (
            <div class="photos" style={{ marginTop: '1rem' }}>
              {slots.map((s) => (
                <AuthImage key={s} linked url={proof[s]!.url} alt={s === 'signature' ? 'Signature' : `Photo ${s.replace('photo_', '')}`} />
              ))}
            </div>
          ) : (
            <p class="muted">No photos or signature.</p>
          )}
        </div>
      )}
      <RefusedDeliveries id={id} />
      {session && session.user.role !== 'driver' && <MessageLog pkg={id} title="Messages to the recipient" />}
    </section>
  );
}
