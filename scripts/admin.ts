import { resolve } from 'node:path';
import { systemClock } from '../server/clock';
import { openDatabase } from '../server/db/client';
import { createOrResetAdmin } from '../server/services/auth/bootstrap';

/**
 * `ADMIN_EMAIL=… ADMIN_PASSWORD=… npm run admin` (or `npm run admin -- <email> <password>`):
 * creates a super admin, or resets an existing admin's password. Safe while the server runs
 * (SQLite WAL, one short transaction).
 */
const [argEmail, argPassword] = process.argv.slice(2);
const email = argEmail ?? process.env.ADMIN_EMAIL;
const password = argPassword ?? process.env.ADMIN_PASSWORD;
if (!email || !password) {
  console.error(
    'usage: ADMIN_EMAIL=you@example.com ADMIN_PASSWORD=<at least 8 characters> npm run admin\n   or: npm run admin -- you@example.com <password>',
  );
  process.exit(2);
}
const databasePath = resolve(process.env.DATABASE_PATH ?? './data/courier.db');
const db = await openDatabase({ url: process.env.DATABASE_URL || undefined, path: databasePath });
try {
  const r = await createOrResetAdmin(db, systemClock, email, password);
  console.log(
    r.kind === 'created'
      ? `created super admin ${r.email} in ${databasePath}`
      : `reset the password of admin ${r.email} in ${databasePath} (account active, its sessions ended)`,
  );
} catch (err) {
  console.error(`npm run admin: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.$engine.close();
}
