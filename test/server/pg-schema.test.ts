import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PG_SCHEMA_FILE, pgSchemaSource } from '../../scripts/pgSchema';

describe('PostgreSQL schema', () => {
  it('is generated from the one declaration of every table (run `npm run db:generate` after a schema change)', () => {
    expect(readFileSync(PG_SCHEMA_FILE, 'utf8')).toBe(pgSchemaSource());
  });
});
