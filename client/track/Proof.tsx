import type { RecipientView } from './api';
import { whenIn } from './time';

export function Proof({ proof, zone }: { proof: NonNullable<RecipientView['proof']>; zone: string }) {
  return (
    <section class="trk-card" aria-labelledby="trk-proof">
      <h2 id="trk-proof">Proof of delivery</h2>
      {proof.delivered_at && (
        <p>
          Delivered {whenIn(proof.delivered_at, zone)}
          {proof.recipient_name ? `, received by ${proof.recipient_name}` : ''}.
        </p>
      )}
      {proof.photos.length > 0 && (
        <div class="trk-photos">
          {proof.photos.map((p, i) => (
            <img key={p.url} src={p.url} alt={`Delivery photo ${i + 1}`} class="trk-photo" data-testid="proof-photo" />
          ))}
        </div>
      )}
      {proof.signature && (
        <figure class="trk-signature">
          <img src={proof.signature.url} alt="Signature" />
          <figcaption>Signature</figcaption>
        </figure>
      )}
      {!proof.photos.length && !proof.signature && <p class="trk-muted">No photo was taken at this delivery.</p>}
    </section>
  );
}
