/**
 * Links in messages come only from the configured PUBLIC_URL, never from a request's Host or
 * Origin (which an attacker chooses). Without PUBLIC_URL messages carry no link at all.
 * The token sits in the fragment: browsers send it neither to the server log nor in Referer.
 */
export function publicOrigin(publicUrl: string | undefined): string | null {
  if (!publicUrl) return null;
  try {
    const u = new URL(publicUrl);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

export function trackingUrl(publicUrl: string | undefined, token: string): string | null {
  const origin = publicOrigin(publicUrl);
  return origin ? `${origin}/track.html#${token}` : null;
}

export function optOutUrl(publicUrl: string | undefined, token: string): string | null {
  const origin = publicOrigin(publicUrl);
  return origin ? `${origin}/track.html#${token}/stop` : null;
}

export const NO_PUBLIC_URL_WARNING =
  'PUBLIC_URL is not set: recipient messages go out without tracking or opt-out links. Set PUBLIC_URL to the address recipients reach this server at.';
