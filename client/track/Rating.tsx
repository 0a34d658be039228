import { useState } from 'preact/hooks';
import { trackApi, type RecipientView } from './api';
import { useAction } from './useAction';

export function Rating({ token, rating, onDone }: { token: string; rating: RecipientView['rating']; onDone: () => Promise<void> }) {
  const [stars, setStars] = useState(0);
  const [comment, setComment] = useState('');
  const { busy, error, run } = useAction();
  if (rating) {
    return (
      <section class="trk-card" aria-labelledby="trk-rate">
        <h2 id="trk-rate">Your rating</h2>
        <p>
          <span class="trk-stars" aria-label={`${rating.rating} out of 5`}>
            {'★'.repeat(rating.rating)}
            {'☆'.repeat(5 - rating.rating)}
          </span>
        </p>
        {rating.comment && <p>“{rating.comment}”</p>}
        <p class="trk-muted">Thank you.</p>
      </section>
    );
  }
  return (
    <section class="trk-card" aria-labelledby="trk-rate">
      <h2 id="trk-rate">How was your delivery?</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (stars) void run(() => trackApi.rate(token, stars, comment.trim()), onDone);
        }}
      >
        <fieldset class="trk-rating">
          <legend>Rating</legend>
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} class={n <= stars ? 'on' : ''}>
              <input type="radio" name="stars" value={n} checked={stars === n} onChange={() => setStars(n)} />
              <span aria-hidden="true">★</span>
              <span class="trk-sr">
                {n} star{n === 1 ? '' : 's'}
              </span>
            </label>
          ))}
        </fieldset>
        <label for="trk-comment">Comment (optional)</label>
        <textarea
          id="trk-comment"
          rows={2}
          maxLength={1000}
          value={comment}
          onInput={(e) => setComment((e.target as HTMLTextAreaElement).value)}
        />
        <button class="trk-btn" type="submit" disabled={!stars || busy}>
          {busy ? 'Sending…' : 'Send rating'}
        </button>
        {error && (
          <p class="trk-err" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
