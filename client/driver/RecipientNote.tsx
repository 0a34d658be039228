/**
 * The recipient's own delivery instructions or safe place, left on their tracking page and synced
 * to the phone with the parcel, so they show with no signal. Set apart from office notes: it is the
 * recipient speaking.
 */
export function RecipientNote({ text }: { text?: string | null }) {
  if (!text) return null;
  return (
    <div class="recipient-note" data-testid="recipient-note">
      <div class="eyebrow">Recipient's instructions</div>
      <p>{text}</p>
    </div>
  );
}
