import { useEffect, useState } from 'preact/hooks';

/** Whether a media query matches now, following changes (rotation, window resize). */
export function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof window !== 'undefined' && window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const on = () => setMatches(mq.matches);
    on();
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return matches;
}

/** Below this width lists become cards: a table shows two useful columns on a phone and scrolls sideways. */
export const NARROW = '(max-width: 700px)';
