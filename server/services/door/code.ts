import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { packageDoor } from '../../db/schema/index';
import { CODE_ITERATIONS, hashCode } from '../../../shared/door';
import { doorRow, parcelRequirements } from './rules';

/**
 * The parcel's one-time code, made the first time it goes out for delivery when its requirements ask
 * for one (in the transaction of that change; the out-for-delivery message carries it, render.ts).
 * The phone gets the salted PBKDF2 hash (shared/door.ts); the server keeps the code to check it and
 * to repeat it in a later attempt's message. Hashing runs on libuv's pool (WebCrypto), not the event
 * loop; it holds this unit ~0.1 s once per code-protected parcel (docs/decisions-door.md).
 */
export async function ensureCode(db: Db, now: number, row: { id: number; company_id: number | null }): Promise<string | null> {
  const door = await doorRow(db, row.id);
  if (door?.code) return door.code;
  if (!(await parcelRequirements(db, row, door ?? null)).code) return null;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(16).toString('hex');
  const hash = await hashCode(code, salt, CODE_ITERATIONS);
  const values = { code, code_salt: salt, code_hash: hash, code_iterations: CODE_ITERATIONS, updated_at: now };
  if (door) await db.update(packageDoor).set(values).where(eq(packageDoor.package_id, row.id)).run();
  else
    await db
      .insert(packageDoor)
      .values({ package_id: row.id, ...values, created_at: now })
      .run();
  return code;
}

/** The server's check of a typed code: against the code itself, in constant time. */
export function codeIs(stored: string | null | undefined, typed: string): boolean {
  if (!stored) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(typed.trim());
  return a.length === b.length && timingSafeEqual(a, b);
}
