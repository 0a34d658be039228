import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

// N=2^15 keeps a verify near 50 ms on this hardware: slow for guessing, fine for a login.
const N = 32768,
  R = 8,
  P = 1,
  KEYLEN = 32,
  MAXMEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEYLEN, { N: n, r: R, p: P, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, cost = N): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return `scrypt$${cost}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * Always spends one full derivation: with no stored hash (unknown account, an account without a
 * password) it derives against DUMMY_HASH and answers false, so the time taken does not tell
 * whether the account exists.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = parseHash(stored);
  const target = parsed ?? parseHash(DUMMY_HASH)!;
  const actual = await derive(password, target.salt, target.n);
  return parsed !== undefined && actual.length === target.key.length && timingSafeEqual(actual, target.key);
}

function parseHash(stored: string | null | undefined): { n: number; salt: Buffer; key: Buffer } | undefined {
  const [scheme, n, salt, key] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || !n || !salt || !key || !/^\d{1,7}$/.test(n)) return undefined;
  return { n: Number(n), salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

/** A hash to compare against when the user does not exist, so timing does not reveal accounts. */
export const DUMMY_HASH = 'scrypt$32768$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** For callers that cannot await (test fixtures hashing before the app exists). */
export function hashPasswordSync(password: string, cost = N): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, KEYLEN, { N: cost, r: R, p: P, maxmem: MAXMEM });
  return `scrypt$${cost}$${salt.toString('base64')}$${key.toString('base64')}`;
}
