import { describe, expect, it } from 'vitest';
import { constraintOf } from '../../server/db/engine/errors';
import { packageEvent, user } from '../../server/db/schema/index';
import { isUniqueViolation } from '../../server/http/idempotency';
import { makeApp } from '../helpers/app';

/** What each engine really throws for a broken constraint, classified once (engine/errors.ts). */
describe('constraint errors', () => {
  it('tells a unique violation (a twin) from a broken foreign key or NOT NULL on either engine', async () => {
    const { db, login } = await makeApp();
    const { email } = await login('admin');
    const thrown = async (write: () => Promise<unknown>) => {
      try {
        await write();
      } catch (err) {
        return err;
      }
      throw new Error('the write was expected to fail');
    };
    const now = Date.now();
    const twin = await thrown(() =>
      db.insert(user).values({ name: 'Twin', email, role: 'admin', password_hash: 'x', created_at: now, updated_at: now }).run(),
    );
    expect(constraintOf(twin)).toBe('unique');
    expect(isUniqueViolation(twin)).toBe(true);

    const orphan = await thrown(() =>
      db.insert(packageEvent).values({ package_id: 999_999, action: 'x', occurred_at: now, received_at: now }).run(),
    );
    expect(constraintOf(orphan)).toBe('foreign_key');
    expect(isUniqueViolation(orphan)).toBe(false);

    const missing = await thrown(() =>
      db
        .insert(user)
        .values({ name: null as unknown as string, email: 'n@x.test', role: 'admin', password_hash: 'x', created_at: now, updated_at: now })
        .run(),
    );
    expect(constraintOf(missing)).toBe('not_null');
    expect(isUniqueViolation(missing)).toBe(false);
  });
});
