import { defineConfig } from 'drizzle-kit';

/** PostgreSQL's migrations, from the schema generated out of server/db/schema/ (scripts/pgSchema.ts). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/pg/schema.ts',
  out: './server/db/migrations-pg',
});
