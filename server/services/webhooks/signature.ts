import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { company, webhookNonce } from '../../db/schema/index';
import { unauthenticated } from '../../errors';
import { WEBHOOK_WINDOW_SECONDS } from '../../../shared/schemas/webhooks';
import { companyWebhookSecret } from '../org/webhookKey';

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`, the same both ways (inbound and outbound). */
export function signBody(secret: string, timestamp: number | string, body: Uint8Array | string): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `sha256=${mac.digest('hex')}`;
}

export interface SignedHeaders {
  company?: string;
  timestamp?: string;
  signature?: string;
}
export interface VerifiedCall {
  companyId: number;
  signature: string;
  expiresAt: number;
}

/** One message for every refusal, so a caller learns nothing about which part was wrong. */
const refused = (why: string) => unauthenticated(`Webhook signature refused: ${why}`);

/**
 * X-Courier-Company carries the company's code and nothing else: one header, one meaning. Codes hold
 * a letter and ids never do, so no company can register a code that shadows another's id.
 */
async function companyOf(db: Db, code: string): Promise<{ id: number; deleted_at: number | null } | undefined> {
  return await db.select({ id: company.id, deleted_at: company.deleted_at }).from(company).where(eq(company.code, code)).get();
}

/**
 * Checks a signed inbound call before anything is read from its body: the company exists and has a
 * key, the timestamp is within the window, the HMAC matches (compared in constant time). Replays are
 * checked by `claimSignature` inside the transaction of the effect.
 */
export async function verifySignedCall(db: Db, h: SignedHeaders, raw: Uint8Array, now: number): Promise<VerifiedCall> {
  const ref = h.company?.trim();
  if (!ref || !h.timestamp || !h.signature) throw refused('X-Courier-Company, X-Courier-Timestamp and X-Courier-Signature are required');
  if (!/^\d{1,12}$/.test(h.timestamp.trim())) throw refused('X-Courier-Timestamp must be unix seconds');
  const ts = Number(h.timestamp.trim());
  if (Math.abs(now / 1000 - ts) > WEBHOOK_WINDOW_SECONDS)
    throw refused(`the timestamp is more than ${WEBHOOK_WINDOW_SECONDS} seconds from the server time`);
  const co = await companyOf(db, ref);
  const secret = co && co.deleted_at == null ? await companyWebhookSecret(db, co.id) : undefined;
  if (!co || !secret) throw refused('unknown company or no webhook key generated');
  const expected = Buffer.from(signBody(secret, h.timestamp.trim(), raw));
  const given = Buffer.from(h.signature.trim().toLowerCase());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refused('the signature does not match the body');
  return { companyId: co.id, signature: given.toString(), expiresAt: (ts + WEBHOOK_WINDOW_SECONDS) * 1000 };
}

/**
 * Remembers a verified signature until its timestamp leaves the window; a second use is a replay.
 * Runs in the transaction of the effect, so a call that changed nothing can be sent again.
 */
export async function claimSignature(db: Db, call: VerifiedCall, now: number): Promise<void> {
  await db.delete(webhookNonce).where(lt(webhookNonce.expires_at, now)).run();
  const seen = await db
    .select({ s: webhookNonce.signature })
    .from(webhookNonce)
    .where(and(eq(webhookNonce.signature, call.signature), eq(webhookNonce.company_id, call.companyId)))
    .get();
  if (seen) throw refused('this request was already received (replay)');
  await db
    .insert(webhookNonce)
    .values({ signature: call.signature, company_id: call.companyId, expires_at: call.expiresAt, created_at: now })
    .run();
}
