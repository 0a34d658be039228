import { createHmac, timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';
import type { Db } from '../../db/client';
import { serverSecretValue } from './serverSecret';

const PREFIX = 'COURIER-PP';
const SECRET = 'pickup-point-qr';

async function tag(db: Db, id: number, now: number): Promise<string> {
  return createHmac('sha256', await serverSecretValue(db, SECRET, now))
    .update(`${PREFIX}:${id}`)
    .digest('hex')
    .slice(0, 8);
}

/** What a pickup point's QR code holds: `COURIER-PP:<id>:<first 8 hex of HMAC-SHA256>`. */
export async function pickupPointCode(db: Db, id: number, now: number): Promise<string> {
  return `${PREFIX}:${id}:${await tag(db, id, now)}`;
}

/** The pickup point id a scanned text names, or null when it is not a code this server printed. */
export async function parsePickupPointCode(db: Db, text: string, now: number): Promise<number | null> {
  const m = /^COURIER-PP:(\d{1,15}):([0-9a-f]{8})$/.exec(text.trim());
  if (!m?.[1] || !m[2]) return null;
  const id = Number(m[1]);
  const expected = Buffer.from(await tag(db, id, now));
  const given = Buffer.from(m[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
}

export async function renderQr(text: string, format: 'png' | 'svg', size: number): Promise<Uint8Array | string> {
  const options = { errorCorrectionLevel: 'M' as const, margin: 2, width: size };
  if (format === 'svg') return QRCode.toString(text, { ...options, type: 'svg' });
  return new Uint8Array(await QRCode.toBuffer(text, { ...options, type: 'png' }));
}
