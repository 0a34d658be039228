import { Readable } from 'node:stream';
import { once } from 'node:events';
import { and, eq, inArray } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import type { Deps } from '../../deps';
import { packagePhoto, storedFile } from '../../db/schema/index';
import { PROOF_SLOTS } from '../../../shared/schemas/delivery';
import type { ReportFilter } from './period';
import { deliveryPage, type DeliveryRow } from './rows';
import { fixedOffsetZone, localClock, localDay, offsetAt } from '../../../shared/time/zone';

/** An image above this is not embedded (no image library here to shrink it); the PDF says so instead. */
export const MAX_EMBED_BYTES = 1_500_000;
/** Embedded image bytes per PDF: past it the rest are listed, so one file stays mailable and printable. */
export const MAX_PDF_IMAGE_BYTES = 80 * 1024 * 1024;
const EMBEDDABLE = new Set(['image/jpeg', 'image/png']);
const THUMB_W = 160;
const THUMB_H = 120;

interface Photo {
  package_id: number;
  slot: string;
  key: string;
  mime: string;
  size: number;
}

async function photosOf(deps: Deps, packageIds: number[]): Promise<Map<number, Photo[]>> {
  const out = new Map<number, Photo[]>();
  if (!packageIds.length) return out;
  const rows = await deps.db
    .select({
      package_id: packagePhoto.package_id,
      slot: packagePhoto.slot,
      key: storedFile.key,
      mime: storedFile.mime,
      size: storedFile.size,
    })
    .from(packagePhoto)
    .innerJoin(storedFile, eq(storedFile.id, packagePhoto.file_id))
    .where(and(inArray(packagePhoto.package_id, packageIds)))
    .all();
  for (const r of rows) {
    const list = out.get(r.package_id) ?? [];
    list.push(r);
    out.set(r.package_id, list);
  }
  for (const list of out.values()) list.sort((a, b) => PROOF_SLOTS.indexOf(a.slot as never) - PROOF_SLOTS.indexOf(b.slot as never));
  return out;
}

/** The delivery's wall-clock time in the report's zone, with the offset it had then (AEDT or AEST shows as +11:00 or +10:00). */
const when = (ms: number, zone: string) => `${localDay(ms, zone)} ${localClock(ms, zone)} (UTC${fixedOffsetZone(offsetAt(ms, zone))})`;

export interface PodSpec {
  filter: ReportFilter;
  title: string;
  page: number;
  pageSize: number;
  total: number;
}

/**
 * Proof-of-delivery PDF, streamed: one block per delivery with its details, photos and signature
 * as thumbnails. Files are read one at a time while the client downloads; the document never
 * holds more than the image being placed.
 */
export function podPdf(deps: Deps, spec: PodSpec): ReadableStream<Uint8Array> {
  const f = spec.filter;
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: spec.title, Author: 'Courier' } });
  let imageBudget = MAX_PDF_IMAGE_BYTES;

  const header = () => {
    doc.fontSize(16).text(spec.title);
    const first = (spec.page - 1) * spec.pageSize + 1;
    const last = Math.min(spec.total, spec.page * spec.pageSize);
    doc
      .fontSize(9)
      .fillColor('#555')
      .text(`Period ${f.from} to ${f.to}. Deliveries ${spec.total ? `${first}-${last}` : '0'} of ${spec.total}.`)
      .fillColor('black');
    doc.moveDown();
  };

  const placeImage = async (p: Photo, x: number, y: number): Promise<void> => {
    const box = () => doc.rect(x, y, THUMB_W, THUMB_H).stroke('#ccc');
    const say = (msg: string) => {
      box();
      doc.fontSize(8).text(msg, x + 6, y + 6, { width: THUMB_W - 12 });
    };
    if (!EMBEDDABLE.has(p.mime)) return say(`${p.slot}: ${p.mime} (not embeddable)`);
    if (p.size > MAX_EMBED_BYTES) return say(`${p.slot}: ${(p.size / 1e6).toFixed(1)} MB, too large to embed; see it online`);
    if (p.size > imageBudget) return say(`${p.slot}: image budget of this PDF used; see it online`);
    const bytes = await deps.files.get(p.key);
    if (!bytes) return say(`${p.slot}: file missing`);
    try {
      doc.image(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), x, y, {
        fit: [THUMB_W, THUMB_H],
        align: 'center',
        valign: 'center',
      });
      imageBudget -= p.size;
    } catch {
      say(`${p.slot}: unreadable image`);
    }
    doc.fontSize(7).text(p.slot.replace('_', ' '), x, y + THUMB_H + 2, { width: THUMB_W });
  };

  const block = async (d: DeliveryRow, photos: Photo[]) => {
    const rowsOfThumbs = Math.ceil(photos.length / 3);
    const needed = 70 + rowsOfThumbs * (THUMB_H + 16);
    if (doc.y + needed > doc.page.height - doc.page.margins.bottom) doc.addPage();
    const left = doc.page.margins.left;
    doc.fontSize(11).text(`${d.hawb}  ${d.customer_name ?? ''}`, left, doc.y);
    doc
      .fontSize(8)
      .fillColor('#333')
      .text(`${d.customer_address ?? ''}${d.suburb_name ? `, ${d.suburb_name}` : ''}`)
      .text(
        `Delivered ${when(d.occurred_at, f.zone)} by ${d.driver_name ?? 'unknown driver'}${d.forced ? ' (forced by an administrator)' : ''}`,
      )
      .text(
        `Received by ${d.recipient_name ?? '-'}${d.note ? `. Note: ${d.note}` : ''}${d.delivery_date ? `. Due ${d.delivery_date}` : ''}`,
      )
      .fillColor('black');
    let y = doc.y + 4;
    if (!photos.length) doc.fontSize(8).text('No photos or signature on record.');
    for (let i = 0; i < photos.length; i += 1) {
      const col = i % 3;
      if (i > 0 && col === 0) y += THUMB_H + 16;
      await placeImage(photos[i] as Photo, left + col * (THUMB_W + 10), y);
    }
    doc.x = left;
    doc.y = photos.length ? y + THUMB_H + 16 : doc.y;
    doc
      .moveTo(left, doc.y)
      .lineTo(doc.page.width - doc.page.margins.right, doc.y)
      .stroke('#ddd');
    doc.moveDown(0.5);
  };

  const produce = async () => {
    header();
    const rows = await deliveryPage(deps.db, f, 0, spec.pageSize, (spec.page - 1) * spec.pageSize);
    if (!rows.length) doc.fontSize(10).text('No deliveries in this period.');
    for (let i = 0; i < rows.length; i += 50) {
      const chunk = rows.slice(i, i + 50);
      const photos = await photosOf(
        deps,
        chunk.map((r) => r.package),
      );
      for (const d of chunk) {
        if (doc.destroyed) return;
        await block(d, photos.get(d.package) ?? []);
        // Wait for the client while more than a megabyte of PDF is unread.
        if (doc.readableLength > 1024 * 1024) await Promise.race([once(doc, 'data'), once(doc, 'close')]);
      }
    }
    doc.end();
  };
  produce().catch((err: unknown) => doc.destroy(err instanceof Error ? err : new Error(String(err))));
  return Readable.toWeb(doc) as ReadableStream<Uint8Array>;
}
