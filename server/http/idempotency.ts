import { constraintOf } from '../db/engine/errors';
import { greatest } from '../db/engine/dialect';
import { createHash } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { changedRows, type Db } from '../db/client';
import { bound, prepared } from '../db/prepared';
import { device, idempotencyKey } from '../db/schema/index';
import { ApiError } from '../errors';
import { jsonText } from './rawJson';

export interface DeviceInfo {
  id: string;
  seq: number | null;
}
export interface IdempotencyInfo {
  key: string;
  device: DeviceInfo | null;
}
export interface StoredAnswer {
  status: number;
  body: unknown;
}

const KEY = /^[A-Za-z0-9_-]{8,128}$/;
const DEVICE = /^[A-Za-z0-9_-]{1,128}$/;

export function deviceOf(c: Context): DeviceInfo | null {
  const id = c.req.header('x-device-id');
  if (!id) return null;
  if (!DEVICE.test(id)) throw new ApiError(400, 'validation_error', 'X-Device-Id must be 1-128 letters, digits, _ or -');
  const rawSeq = c.req.header('x-device-seq');
  if (rawSeq == null) return { id, seq: null };
  const seq = Number(rawSeq);
  if (!Number.isSafeInteger(seq) || seq < 1) throw new ApiError(400, 'validation_error', 'X-Device-Seq must be a positive integer');
  return { id, seq };
}

export function idempotencyOf(c: Context): IdempotencyInfo | null {
  const key = c.req.header('idempotency-key');
  if (key == null) return null;
  if (!KEY.test(key)) throw new ApiError(400, 'validation_error', 'Idempotency-Key must be 8-128 letters, digits, _ or - (a UUID)');
  return { key, device: deviceOf(c) };
}

export function bodyHash(method: string, path: string, body: Uint8Array | string): string {
  return createHash('sha256').update(`${method} ${path}\n`).update(body).digest('hex');
}

// Every device action runs these: built once per database rather than per request.
const answerByKey = (db: Db) =>
  db
    .select()
    .from(idempotencyKey)
    .where(eq(idempotencyKey.key, sql.placeholder('key')))
    .prepare();
const answerInsert = (db: Db) =>
  db
    .insert(idempotencyKey)
    .values({
      key: sql.placeholder('key'),
      user_id: sql.placeholder('user_id'),
      device_id: sql.placeholder('device_id'),
      device_seq: sql.placeholder('device_seq'),
      method: sql.placeholder('method'),
      path: sql.placeholder('path'),
      body_hash: sql.placeholder('body_hash'),
      status: sql.placeholder('status'),
      response: sql.placeholder('response'),
      created_at: sql.placeholder('created_at'),
    })
    .prepare();
const deviceUpsert = (db: Db) =>
  db
    .insert(device)
    .values({
      device_id: sql.placeholder('device_id'),
      user_id: sql.placeholder('user_id'),
      last_seq: sql.placeholder('seq'),
      updated_at: sql.placeholder('now'),
    })
    .onConflictDoUpdate({
      target: device.device_id,
      set: { last_seq: greatest(db, device.last_seq, bound('seq')), user_id: bound('user_id'), updated_at: bound('now') },
    })
    .prepare();

/** The stored answer for this key, or null if it was never answered; 422 if the key was used for another request. */
export async function findAnswer(db: Db, key: string, userId: number, hash: string): Promise<StoredAnswer | null> {
  const row = await prepared(db, 'idempotency.answerByKey', answerByKey).get({ key });
  if (!row) return null;
  if (row.user_id !== userId || row.body_hash !== hash) {
    throw new ApiError(422, 'idempotency_mismatch', 'This Idempotency-Key was already used for a different request');
  }
  return { status: row.status, body: JSON.parse(row.response) as unknown };
}

/** Written inside the transaction of the effect, so the effect and its answer commit together. */
export async function storeAnswer(
  db: Db,
  info: IdempotencyInfo,
  userId: number,
  method: string,
  path: string,
  hash: string,
  answer: StoredAnswer,
  now: number,
): Promise<void> {
  await prepared(db, 'idempotency.answerInsert', answerInsert).run({
    key: info.key,
    user_id: userId,
    device_id: info.device?.id ?? null,
    device_seq: info.device?.seq ?? null,
    method,
    path,
    body_hash: hash,
    status: answer.status,
    response: jsonText(answer.body),
    created_at: now,
  });
  await noteDevice(db, info.device, userId, now);
}

export async function noteDevice(db: Db, dev: DeviceInfo | null, userId: number, now: number): Promise<void> {
  if (!dev || dev.seq == null) return;
  await prepared(db, 'idempotency.deviceUpsert', deviceUpsert).run({ device_id: dev.id, user_id: userId, seq: dev.seq, now });
}

/** Keys older than the retention are dropped; each device's last seq is kept forever. */
export async function pruneAnswers(db: Db, olderThan: number): Promise<number> {
  return changedRows(await db.delete(idempotencyKey).where(lt(idempotencyKey.created_at, olderThan)).run());
}

/**
 * A twin's Idempotency-Key stored first (the key is the primary key): its answer is looked up. The one
 * caller (storing a rejection, route.ts) writes nothing else a unique constraint guards (the device's
 * sequence is an upsert), and any other broken constraint is a fault to surface, not a twin.
 */
export function isUniqueViolation(err: unknown): boolean {
  return constraintOf(err) === 'unique';
}
