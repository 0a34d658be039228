import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { company, recipientSettings, storedFile } from '../../db/schema/index';
import { badRequest, notFound } from '../../errors';
import {
  MESSAGE_CHANNELS,
  RECIPIENT_EVENTS,
  STOPS_AWAY_DEFAULT,
  type MessageChannel,
  type RecipientEvent,
  type RecipientSettings,
  type RecipientSettingsUpdate,
} from '../../../shared/schemas/recipients';

/** Short enough for one SMS segment or two; `{link}` is left out when PUBLIC_URL is not configured. */
export const DEFAULT_TEMPLATES: Record<RecipientEvent, string> = {
  out_for_delivery: '{company}: your parcel {hawb} is on its way{eta}. Track it or leave instructions: {link}',
  arriving_soon: '{company}: your parcel {hawb} is {stops} away. Track it: {link}',
  delivered: '{company}: your parcel {hawb} was delivered. Proof of delivery: {link}',
  failed: '{company}: we could not deliver your parcel {hawb} ({reason}). {next_step} Choose another day or leave instructions: {link}',
  returned_to_sender: '{company}: your parcel {hawb} is going back to the sender. Details: {link}',
};

export const SUBJECTS: Record<RecipientEvent, string> = {
  out_for_delivery: 'Your parcel {hawb} is on its way',
  arriving_soon: 'Your parcel {hawb} is {stops} away',
  delivered: 'Your parcel {hawb} was delivered',
  failed: 'We missed you: parcel {hawb}',
  returned_to_sender: 'Your parcel {hawb} is going back to the sender',
};

export interface EffectiveSettings {
  companyId: number;
  companyName: string;
  events: RecipientEvent[];
  channels: MessageChannel[];
  senderName: string;
  templates: Record<RecipientEvent, string>;
  logoFileId: number | null;
  stopsAway: number;
  rescheduleDays: number;
}

const settingsOf = (db: Db) =>
  db
    .select({ s: recipientSettings, name: company.name })
    .from(company)
    .leftJoin(recipientSettings, eq(recipientSettings.company_id, company.id))
    .where(eq(company.id, sql.placeholder('company')))
    .prepare();

/** A company's settings with the defaults filled in (every event, both channels, its own name). */
export async function effectiveSettings(db: Db, companyId: number): Promise<EffectiveSettings | undefined> {
  const row = await prepared(db, 'recipients.settingsOf', settingsOf).get({ company: companyId });
  if (!row) return undefined;
  const s = row.s;
  const templates = { ...DEFAULT_TEMPLATES, ...(s ? (JSON.parse(s.templates) as Partial<Record<RecipientEvent, string>>) : {}) };
  return {
    companyId,
    companyName: row.name,
    events: s ? (JSON.parse(s.events) as RecipientEvent[]) : [...RECIPIENT_EVENTS],
    channels: s ? (JSON.parse(s.channels) as MessageChannel[]) : [...MESSAGE_CHANNELS],
    senderName: s?.sender_name || row.name,
    templates,
    logoFileId: s?.logo_file_id ?? null,
    stopsAway: s?.stops_away ?? STOPS_AWAY_DEFAULT,
    rescheduleDays: s?.reschedule_days ?? 7,
  };
}

export function shapeSettings(e: EffectiveSettings): RecipientSettings {
  return {
    company: e.companyId,
    events: e.events,
    channels: e.channels,
    sender_name: e.senderName,
    templates: e.templates,
    logo_file: e.logoFileId,
    stops_away: e.stopsAway,
    reschedule_days: e.rescheduleDays,
  };
}

export async function readSettings(db: Db, companyId: number): Promise<RecipientSettings> {
  const e = await effectiveSettings(db, companyId);
  if (!e) throw notFound(`Company ${companyId} not found`);
  return shapeSettings(e);
}

/** Partial update; the logo must be an image uploaded as a logo (`kind: logo`) by the company's own logins. */
export async function saveSettings(
  db: Db,
  now: number,
  companyId: number,
  uploaderIds: number[],
  body: z.output<typeof RecipientSettingsUpdate>,
): Promise<RecipientSettings> {
  const current = await effectiveSettings(db, companyId);
  if (!current) throw notFound(`Company ${companyId} not found`);
  if (body.logo_file != null) {
    const f = await db.select().from(storedFile).where(eq(storedFile.id, body.logo_file)).get();
    if (!f || !uploaderIds.includes(f.owner_id ?? -1))
      throw badRequest(`File ${body.logo_file} is not one of your uploads`, [{ path: 'logo_file', message: 'unknown file' }]);
    if (!f.mime.startsWith('image/'))
      throw badRequest(`File ${body.logo_file} is not an image`, [{ path: 'logo_file', message: 'not an image' }]);
    // A file serves the purpose it was uploaded for: a photo or an ID document never becomes a public logo.
    if (f.kind !== 'logo')
      throw badRequest(`File ${body.logo_file} was not uploaded as a logo (kind logo)`, [
        { path: 'logo_file', message: 'not uploaded as a logo' },
      ]);
  }
  const customised = Object.fromEntries(
    Object.entries({ ...current.templates, ...body.templates }).filter(
      ([k, v]) => v !== DEFAULT_TEMPLATES[k as RecipientEvent] && v !== '',
    ),
  );
  const values = {
    events: JSON.stringify(body.events ?? current.events),
    channels: JSON.stringify(body.channels ?? current.channels),
    sender_name:
      body.sender_name !== undefined ? body.sender_name || null : current.senderName === current.companyName ? null : current.senderName,
    templates: JSON.stringify(customised),
    logo_file_id: body.logo_file !== undefined ? body.logo_file : current.logoFileId,
    stops_away: body.stops_away ?? current.stopsAway,
    reschedule_days: body.reschedule_days ?? current.rescheduleDays,
    updated_at: now,
  };
  await db
    .insert(recipientSettings)
    .values({ company_id: companyId, ...values, created_at: now })
    .onConflictDoUpdate({ target: recipientSettings.company_id, set: values })
    .run();
  return readSettings(db, companyId);
}
