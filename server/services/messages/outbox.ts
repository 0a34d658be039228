import { and, eq, sql } from 'drizzle-orm';
import { changedRows, type Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { messageOptOut, messageOutbox } from '../../db/schema/index';

export type Channel = 'email' | 'sms';

export interface QueuedMessage {
  channel: Channel;
  to: string;
  kind: string;
  subject?: string | null;
  body?: string | null;
  data?: Record<string, unknown> | null;
  companyId?: number | null;
  packageId?: number | null;
  /** The same key queued twice is one message (a replayed transition, a second hook). */
  dedupeKey?: string | null;
}

const insertRow = (db: Db) =>
  db
    .insert(messageOutbox)
    .values({
      channel: sql.placeholder('channel'),
      to: sql.placeholder('to'),
      kind: sql.placeholder('kind'),
      subject: sql.placeholder('subject'),
      body: sql.placeholder('body'),
      data: sql.placeholder('data'),
      company_id: sql.placeholder('company_id'),
      package_id: sql.placeholder('package_id'),
      dedupe_key: sql.placeholder('dedupe_key'),
      status: 'pending',
      attempts: 0,
      next_attempt_at: sql.placeholder('now'),
      created_at: sql.placeholder('now'),
      updated_at: sql.placeholder('now'),
    })
    .onConflictDoNothing()
    .prepare();

const optedOut = (db: Db) =>
  db
    .select({ id: messageOptOut.id })
    .from(messageOptOut)
    .where(and(eq(messageOptOut.company_id, sql.placeholder('company')), eq(messageOptOut.address, sql.placeholder('address'))))
    .prepare();

/** E-mails compare case-insensitively; phone numbers without spaces, dashes or brackets. */
export function normaliseAddress(channel: Channel, address: string): string {
  return channel === 'email' ? address.trim().toLowerCase() : address.replace(/[\s()-]/g, '');
}

export async function isOptedOut(db: Db, companyId: number | null | undefined, channel: Channel, address: string): Promise<boolean> {
  if (companyId == null) return false;
  return (
    (await prepared(db, 'messages.optedOut', optedOut).get({ company: companyId, address: normaliseAddress(channel, address) })) !==
    undefined
  );
}

/**
 * Queues one message in the caller's transaction; the dispatcher sends it after that commits.
 * Answers false when it was not queued (opted out, or its dedupe key was already queued).
 */
export async function enqueueMessage(db: Db, now: number, m: QueuedMessage): Promise<boolean> {
  if (await isOptedOut(db, m.companyId, m.channel, m.to)) return false;
  const result = await prepared(db, 'messages.insert', insertRow).run({
    channel: m.channel,
    to: m.to.trim(),
    kind: m.kind,
    subject: m.subject ?? null,
    body: m.body ?? null,
    data: m.data ? JSON.stringify(m.data) : null,
    company_id: m.companyId ?? null,
    package_id: m.packageId ?? null,
    dedupe_key: m.dedupeKey ?? null,
    now,
  });
  return changedRows(result) > 0;
}

export async function recordOptOut(db: Db, now: number, companyId: number, channel: Channel, address: string): Promise<void> {
  await db
    .insert(messageOptOut)
    .values({ company_id: companyId, address: normaliseAddress(channel, address), created_at: now })
    .onConflictDoNothing()
    .run();
}
