/**
 * The Courier mark (public/icon.svg) drawn inline: an `<img src=icon.svg>` makes the browser build
 * a separate SVG document, which on a slow phone costs more than the rest of the top bar.
 */
export function Logo() {
  return (
    <svg class="logo-mark" viewBox="0 0 512 512" aria-hidden="true" focusable="false">
      <rect width="512" height="512" rx="96" fill="#0b3d91" />
      <path d="M112 176l144-72 144 72v160l-144 72-144-72z" fill="#ffc72c" />
      <path d="M112 176l144 72 144-72M256 248v160" stroke="#0b3d91" stroke-width="20" fill="none" />
    </svg>
  );
}
