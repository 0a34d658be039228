/** Monotonic milliseconds in Node and browsers alike. */
export function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}
