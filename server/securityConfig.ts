import type { Config } from './deps';

/**
 * PUBLIC_URL, TRUST_PROXY and STAFF_IDLE_MINUTES from the environment, with the start-up warnings an
 * operator must see. A bad value stops the start: a guessed link or a trusted spoofed address is
 * worse than a server that does not start.
 */
export function securityConfig(env: Record<string, string | undefined>): {
  config: Pick<Config, 'publicUrl' | 'trustProxy' | 'staffIdleMs'>;
  warnings: string[];
} {
  const warnings: string[] = [];
  let publicUrl: string | undefined;
  if (env.PUBLIC_URL) {
    let url: URL;
    try {
      url = new URL(env.PUBLIC_URL);
    } catch {
      throw new Error(`PUBLIC_URL is not a URL: ${env.PUBLIC_URL}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('PUBLIC_URL must be an http(s) URL');
    if (url.search || url.hash || url.username) throw new Error('PUBLIC_URL must be a base URL without query, fragment or credentials');
    publicUrl = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } else {
    warnings.push(
      'PUBLIC_URL is not set: password reset e-mails are refused (503) because a link cannot be built safely. ' +
        'Set PUBLIC_URL to the address users open, e.g. https://courier.example.com',
    );
  }
  const raw = (env.TRUST_PROXY ?? '').trim().toLowerCase();
  const trustProxy = raw === '' || raw === '0' || raw === 'false' ? 0 : raw === 'true' ? 1 : Number(raw);
  if (!Number.isInteger(trustProxy) || trustProxy < 0 || trustProxy > 10) {
    throw new Error('TRUST_PROXY must be the number of reverse proxies in front of the server (0-10) or true/false');
  }
  const idle = env.STAFF_IDLE_MINUTES ? Number(env.STAFF_IDLE_MINUTES) : 12 * 60;
  if (!Number.isFinite(idle) || idle < 5) throw new Error('STAFF_IDLE_MINUTES must be a number of minutes, at least 5');
  return { config: { publicUrl, trustProxy, staffIdleMs: idle * 60_000 }, warnings };
}
