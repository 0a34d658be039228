import type { ViewPackage } from '../sync/index';
import { Badge, StatusBadge } from '../ui/Badge';
import { failures, mustReturn } from './day';
import { addressOf, mapsHref, telHref } from './maps';
import { RecipientNote } from './RecipientNote';
import { DoorNeeds } from './DoorNeeds';
import { CodDue } from './CodDue';
import { storyOf } from './refusal';

/** Where to go, who to give it to and how to reach them: what a driver needs at a glance at the kerb. */
export function StopCard({ p, max, title, eta }: { p: ViewPackage; max: number; title?: string; eta?: string | null }) {
  const maps = mapsHref(p);
  const tel = telHref(p.customer_phone);
  const notes = [
    p.description_of_goods,
    ...p.package_failed_delivery_status.map((f) => `Earlier attempt: ${f.name}${f.note ? ` (${f.note})` : ''}`),
  ].filter(Boolean);
  return (
    <section class="stop-card" aria-label={title ?? `Parcel ${p.hawb}`} data-testid="stop-card" data-hawb={p.hawb}>
      {title && (
        <div class="eyebrow">
          {title}
          {eta && <span data-testid="next-eta"> · arriving about {eta}</span>}
        </div>
      )}
      <div class="row between">
        <span class="hawb mono">{p.hawb}</span>
        <span class="row">
          {p.pending && <Badge tone="info">{p.pending.status === 'sending' ? 'Sending' : 'Not sent yet'}</Badge>}
          <StatusBadge status={p.status} />
        </span>
      </div>
      <div class="address">{addressOf(p) || 'No address on this parcel'}</div>
      <div class="receiver">
        {p.customer_name ?? 'No receiver name'}
        {p.customer_phone ? <span class="phone"> · {p.customer_phone}</span> : null}
      </div>
      <RecipientNote text={p.recipient_instructions} />
      <CodDue cod={p.cod} />
      <DoorNeeds door={p.door} />
      {notes.length > 0 && (
        <ul class="notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {mustReturn(p, max) && (
        <div class="must-return" role="alert">
          Take back to the depot: {failures(p)} of {max} attempts used.
        </div>
      )}
      {p.rejected && <RefusedNote r={p.rejected} status={p.status} />}
      <div class="contact">
        {tel ? (
          <a class="btn xl" href={tel} aria-label={`Call ${p.customer_phone ?? ''}`}>
            Call
          </a>
        ) : (
          <span class="muted">No phone number</span>
        )}
        {maps && (
          <a class="btn xl" href={maps} target="_blank" rel="noopener">
            Navigate
          </a>
        )}
      </div>
    </section>
  );
}

/** A refused action on this parcel: what happened and what to do with the parcel, not the server's wording. */
function RefusedNote({ r, status }: { r: NonNullable<ViewPackage['rejected']>; status: string }) {
  // The parcel is on the phone: the driver had it. Its status now and the refusal tell one story.
  const story = storyOf(r.rejection, r.path, { status, hadIt: true });
  return (
    <div class="rejected-note" role="alert" data-testid="stop-refused">
      <div>{story.what}</div>
      <div>{story.todo}</div>
    </div>
  );
}
