import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { company } from './people';

/** A company's default proof at the door (issue 34, shared/door.ts); no row means none required. */
export const companyProofRules = sqliteTable('company_proof_rules', {
  company_id: integer('company_id')
    .primaryKey()
    .references(() => company.id),
  /** JSON ProofRequirements. */
  requirements: text('requirements').notNull(),
  ...timestamps(),
});

/**
 * A parcel's door: what it needs beyond its company's default, its one-time code, the recipient's
 * choice and what was checked when it was delivered. No foreign key: the parcel may move to history
 * (schema/history.ts) and this stays with it, like the message log.
 */
export const packageDoor = sqliteTable('package_door', {
  package_id: integer('package_id').primaryKey(),
  /** JSON partial ProofRequirements the parcel raises; null = the company's default only. */
  requirements: text('requirements'),
  /** The one-time code itself: the server checks it and sends it; the phone gets only its hash. */
  code: text('code'),
  code_salt: text('code_salt'),
  code_hash: text('code_hash'),
  code_iterations: integer('code_iterations'),
  /** JSON RecipientChoice without `at`/`late`, which are the columns below. */
  choice: text('choice'),
  choice_at: integer('choice_at'),
  choice_late: integer('choice_late', { mode: 'boolean' }).notNull().default(false),
  /** JSON DoorChecked of the delivery. */
  checked: text('checked'),
  ...timestamps(),
});
