import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { serverSecret } from '../../db/schema/index';

/**
 * A random secret the server signs with, made on first use and kept in the database so codes it
 * printed stay valid across restarts and on every process sharing the database.
 */
export async function serverSecretValue(db: Db, name: string, now: number): Promise<Buffer> {
  const found = await db.select().from(serverSecret).where(eq(serverSecret.name, name)).get();
  if (found) return Buffer.from(found.value, 'base64');
  await db
    .insert(serverSecret)
    .values({ name, value: randomBytes(32).toString('base64'), created_at: now })
    .onConflictDoNothing()
    .run();
  const row = await db.select().from(serverSecret).where(eq(serverSecret.name, name)).get();
  if (!row) throw new Error(`server secret ${name} could not be stored`);
  return Buffer.from(row.value, 'base64');
}
