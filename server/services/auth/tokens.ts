import { createHash, randomBytes } from 'node:crypto';

/** Opaque tokens: the client holds the random string, the database only its hash. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
