import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { migratePostgres } from './postgresMigrate';

const TEMPLATE_LOCK = 0x74706c; // "tpl"
let templateName: string | null = null;
let made = 0;

/** The migrations' fingerprint: a template made from other migrations is never reused. */
function fingerprint(folder: string, extra: string): string {
  const hash = createHash('sha1').update(extra);
  for (const name of readdirSync(folder)
    .filter((n) => n.endsWith('.sql'))
    .sort())
    hash.update(readFileSync(join(folder, name)));
  return hash.digest('hex').slice(0, 12);
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A new, empty, migrated database on the PostgreSQL server at `adminUrl` (tests and benchmarks): a
 * copy of a template database migrated once per migration set, which takes a few milliseconds
 * where migrating anew would take a second. Several test processes share the template under a lock.
 */
/** `after` runs on the template after its migrations; `afterKey` names what it makes, so another version gets its own template. */
export async function freshPostgresDatabase(
  adminUrl: string,
  folder: string,
  after?: (client: pg.ClientBase) => Promise<void>,
  afterKey = '',
): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (!templateName) {
      const name = `courier_tpl_${fingerprint(folder, afterKey)}`;
      await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      try {
        const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
        if (!exists.rowCount) {
          await admin.query(`create database "${name}"`);
          await migratePostgres(withDatabase(adminUrl, name), folder, after);
        }
      } finally {
        await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
      }
      templateName = name;
    }
    made += 1;
    const name = `courier_t${process.pid}_${made}_${Date.now() % 100000}`;
    // Copying needs the template to have no other connection: retry briefly while another process copies it.
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(`create database "${name}" template "${templateName}"`);
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== '55006' || attempt > 50) throw err;
        await new Promise((ok) => setTimeout(ok, 20 + Math.random() * 40));
      }
    }
    return withDatabase(adminUrl, name);
  } finally {
    await admin.end();
  }
}
