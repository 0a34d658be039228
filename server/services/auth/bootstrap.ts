import { sql } from 'drizzle-orm';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/index';
import { hashPassword } from './passwords';

/** First start: with no user yet and ADMIN_EMAIL/ADMIN_PASSWORD set, create the super admin. */
export async function ensureSuperAdmin(db: Db, clock: Clock, email?: string, password?: string): Promise<string | null> {
  if (!email || !password) return null;
  const n = db.select({ n: sql<number>`count(*)` }).from(user).get()?.n ?? 0;
  if (n > 0) return null;
  if (password.length < 8) throw new Error('ADMIN_PASSWORD must be at least 8 characters');
  const now = clock.now();
  const normalized = email.trim().toLowerCase();
  db.insert(user).values({
    name: 'Super Admin', email: normalized, role: 'super_admin', password_hash: await hashPassword(password),
    created_at: now, updated_at: now,
  }).run();
  return normalized;
}
