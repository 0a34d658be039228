import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import type { Package } from '../../../shared/schemas/package';
import { labelPieces } from '../../../shared/schemas/labels';

/**
 * Shipping labels and manifests (issue 18). One 4x6 inch label per piece (288 x 432 pt, the
 * thermal-printer size), or the same labels four to an A4 sheet. Each label carries the tracking
 * number as a Code 128 barcode (what the depot and driver scanners read) and a QR code of it, the
 * recipient and address, the zone in large type (the depot sorts by it), weight and "piece n of N".
 */
export type LabelLayout = '4x6' | 'a4';

const INCH = 72;
const LABEL = { w: 4 * INCH, h: 6 * INCH };

function code128(text: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'code128', text, scale: 3, height: 14, includetext: false });
}
function qr(text: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'qrcode', text, scale: 4 });
}

function toBytes(doc: PDFKit.PDFDocument): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
}

/** Address lines without repeating the suburb (an address that already names it is not extended). */
export function addressLines(p: Pick<Package, 'customer_address' | 'suburb_name' | 'postcode_name' | 'postcode' | 'state_name'>): string[] {
  const street = (p.customer_address ?? '').trim();
  const place = p.suburb_name ?? p.postcode_name ?? '';
  const tail = [
    place && !street.toLowerCase().includes(place.toLowerCase()) ? place : '',
    p.state_name ?? '',
    p.postcode != null ? String(p.postcode) : '',
  ]
    .filter(Boolean)
    .join(' ');
  return [street, tail].filter((s) => s.trim() !== '');
}

/** A parcel as its label prints it: with what the driver collects on delivery (issue 34), if anything. */
export type LabelParcel = Package & { cod_due?: string | null };
interface Piece {
  p: LabelParcel;
  n: number;
  of: number;
  bar: Buffer;
  qr: Buffer;
  door?: string | undefined;
}

/**
 * Writes `text` as large as it fits in a box (`w` x `h`), centred both ways: one line at the largest size
 * from `max` down, else wrapped onto two lines, shrinking until pdfkit's own measure says it fits. A zone
 * like "EASTERN SUBURBS" prints whole instead of its second line falling off the banner (issue 36).
 */
function fitText(doc: PDFKit.PDFDocument, text: string, x: number, y: number, w: number, h: number, max: number, min = 9): void {
  let size = max;
  let oneLine = true;
  for (; size > min; size -= 1) {
    doc.fontSize(size);
    if (doc.widthOfString(text) <= w && doc.currentLineHeight(true) <= h) break;
    // Below two thirds of the largest size, two lines of a bigger type read better than one tiny line.
    if (size <= max * 0.66 && doc.heightOfString(text, { width: w, lineGap: -size * 0.1 }) <= h) {
      oneLine = false;
      break;
    }
  }
  doc.fontSize(size);
  const opts = { width: w, align: 'center' as const, lineGap: -size * 0.1 };
  const used = oneLine ? doc.currentLineHeight(true) : Math.min(h, doc.heightOfString(text, opts));
  doc.text(text, x, y + (h - used) / 2, oneLine ? { ...opts, lineBreak: false } : { ...opts, height: h, ellipsis: true });
}

function drawLabel(doc: PDFKit.PDFDocument, x: number, y: number, w: number, h: number, piece: Piece, courier: string): void {
  const { p } = piece;
  const pad = 12;
  const inner = w - 2 * pad;
  doc
    .save()
    .lineWidth(1.5)
    .rect(x + 2, y + 2, w - 4, h - 4)
    .stroke()
    .restore();
  let cy = y + pad;
  // Who sent it (the shipper), and the courier carrying it: never the software's name (issue 36).
  const shipper = p.company_name?.trim() || courier || '—';
  const carrierW =
    courier && courier !== shipper ? Math.min(inner / 2, doc.font('Helvetica-Bold').fontSize(8).widthOfString(courier) + 2) : 0;
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor('black')
    .text(`FROM: ${shipper}`, x + pad, cy, { width: inner - carrierW - 6, lineBreak: false, ellipsis: true });
  if (carrierW)
    doc
      .font('Helvetica-Bold')
      .fontSize(8)
      .text(courier, x + w - pad - carrierW, cy, { width: carrierW, align: 'right', lineBreak: false, ellipsis: true });
  cy += 14;
  // Zone, big: the depot reads it from across the bay.
  const zone = (p.zone_name ?? 'NO ZONE').toUpperCase();
  const banner = 64;
  doc.rect(x + pad, cy, inner, banner).fill('black');
  doc.fillColor('white').font('Helvetica-Bold');
  fitText(doc, zone, x + pad + 6, cy + 4, inner - 12, banner - 8, 40);
  doc.fillColor('black');
  cy += banner + 8;
  doc
    .font('Helvetica')
    .fontSize(8)
    .text('TO:', x + pad, cy);
  cy += 10;
  doc
    .font('Helvetica-Bold')
    .fontSize(15)
    .text(p.customer_name ?? '—', x + pad, cy, { width: inner, height: 36, ellipsis: true });
  cy = doc.y + 2;
  doc.font('Helvetica').fontSize(12);
  for (const line of addressLines(p)) {
    doc.text(line, x + pad, cy, { width: inner, height: 30, ellipsis: true });
    cy = doc.y;
  }
  if (p.customer_phone) {
    doc.fontSize(10).text(`Ph ${p.customer_phone}`, x + pad, cy + 2, { width: inner });
    cy = doc.y;
  }
  // What the driver must check at the door (issue 34), so the depot and the driver see it on the parcel.
  if (piece.door) {
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(`AT THE DOOR: ${piece.door}`, x + pad, cy + 4, { width: inner, height: 26, ellipsis: true });
    cy = doc.y;
  }
  // Bottom block, anchored to the bottom edge whatever the address length.
  const barH = 64;
  const bottom = y + h - pad;
  const barTop = bottom - barH - 16;
  const infoTop = barTop - 74;
  doc
    .moveTo(x + pad, infoTop - 6)
    .lineTo(x + w - pad, infoTop - 6)
    .stroke();
  doc.image(piece.qr, x + w - pad - 66, infoTop, { fit: [66, 66] });
  doc
    .font('Helvetica-Bold')
    .fontSize(13)
    .text(`Weight: ${p.weight != null ? `${p.weight} kg` : '—'}`, x + pad, infoTop + 4);
  doc.text(`Piece ${piece.n} of ${piece.of}`, x + pad, infoTop + 24);
  if (p.cod_due)
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(`COLLECT ${p.cod_due}`, x + pad, infoTop + 56, { width: inner - 80, lineBreak: false, ellipsis: true });
  doc.image(piece.bar, x + pad, barTop, { fit: [inner, barH], align: 'center' });
  doc
    .font('Courier-Bold')
    .fontSize(13)
    .text(p.hawb, x + pad, bottom - 13, { width: inner, align: 'center' });
}

/** Labels for parcels, one per piece (`count`, at least 1), in the order given. */
export async function labelsPdf(
  parcels: LabelParcel[],
  layout: LabelLayout,
  /** The courier's trading name from the business profile ('' before one is saved). */
  courier = '',
  door: Record<number, string> = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const pieces: Piece[] = [];
  for (const p of parcels) {
    const [bar, code] = await Promise.all([code128(p.hawb), qr(p.hawb)]);
    const of = labelPieces(p.count);
    for (let n = 1; n <= of; n++) pieces.push({ p, n, of, bar, qr: code, door: door[p.id] });
  }
  const doc =
    layout === '4x6'
      ? new PDFDocument({
          size: [LABEL.w, LABEL.h],
          margin: 0,
          autoFirstPage: false,
          info: { Title: 'Shipping labels', Author: courier || 'Courier' },
        })
      : new PDFDocument({
          size: 'A4',
          margin: 0,
          autoFirstPage: false,
          info: { Title: 'Shipping labels (A4, 4 per sheet)', Author: courier || 'Courier' },
        });
  const out = toBytes(doc);
  if (layout === '4x6') {
    for (const piece of pieces) {
      doc.addPage();
      drawLabel(doc, 0, 0, LABEL.w, LABEL.h, piece, courier);
    }
  } else {
    // A4 (595 x 842 pt) in four quarters, each about 4x6 inch; cut along the page's middle lines.
    const w = 595.28 / 2;
    const h = 841.89 / 2;
    pieces.forEach((piece, i) => {
      if (i % 4 === 0) doc.addPage();
      const q = i % 4;
      drawLabel(doc, (q % 2) * w, Math.floor(q / 2) * h, w, h, piece, courier);
    });
  }
  if (!pieces.length) doc.addPage().fontSize(14).text('No parcels to label.', 40, 40);
  doc.end();
  return out;
}

export interface ManifestInfo {
  title: string;
  /** The courier's trading name (business profile), '' before one is saved. */
  courier?: string;
  driver: string | null;
  date: string;
  generatedAt: string;
}

/** A driver's or route's manifest on A4: one row per parcel in delivery order, totals, and signature lines. */
export async function manifestPdf(info: ManifestInfo, parcels: Package[]): Promise<Uint8Array<ArrayBuffer>> {
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: info.title, Author: info.courier || 'Courier' } });
  const out = toBytes(doc);
  if (info.courier) doc.font('Helvetica-Bold').fontSize(11).text(info.courier);
  doc.font('Helvetica-Bold').fontSize(18).text(info.title);
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(`Driver: ${info.driver ?? 'unassigned'}    Date: ${info.date}    Printed: ${info.generatedAt}`);
  const pieces = parcels.reduce((s, p) => s + Math.max(1, p.count ?? 1), 0);
  const kg = parcels.reduce((s, p) => s + (p.weight ?? 0), 0);
  doc.text(`${parcels.length} parcel(s), ${pieces} piece(s), ${Math.round(kg * 100) / 100} kg`);
  doc.moveDown(0.5);
  const cols = [
    { key: '#', w: 24 },
    { key: 'Tracking no', w: 92 },
    { key: 'Recipient', w: 110 },
    { key: 'Address', w: 160 },
    { key: 'Zone', w: 52 },
    { key: 'Kg', w: 34 },
    { key: 'Pcs', w: 28 },
    { key: 'Status', w: 15 },
  ];
  const left = doc.page.margins.left;
  // The header row's rule sits below its measured height, and the first row starts below the rule:
  // text drawn with lineBreak off leaves doc.y where it was, which had the first row overprint it.
  const header = () => {
    let x = left;
    doc.font('Helvetica-Bold').fontSize(9);
    const y = doc.y;
    for (const c of cols.slice(0, 7)) {
      doc.text(c.key, x, y, { width: c.w - 4, lineBreak: false });
      x += c.w;
    }
    doc.text('OK', x, y, { lineBreak: false });
    const rule = y + doc.heightOfString('Tracking no', { width: 200 }) + 2;
    doc
      .moveTo(left, rule)
      .lineTo(doc.page.width - doc.page.margins.right, rule)
      .stroke();
    doc.x = left;
    doc.y = rule + 4;
  };
  header();
  parcels.forEach((p, i) => {
    if (doc.y > doc.page.height - 120) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    const cells = [
      String(p.sequence_no ?? i + 1),
      p.hawb,
      p.customer_name ?? '—',
      addressLines(p).join(', ') || '—',
      p.zone_name ?? '—',
      p.weight != null ? String(p.weight) : '—',
      String(Math.max(1, p.count ?? 1)),
    ];
    let x = left;
    let bottom = y;
    doc.font('Helvetica').fontSize(9);
    cells.forEach((text, j) => {
      const c = cols[j] as { w: number };
      doc.font(j === 1 ? 'Courier-Bold' : 'Helvetica').text(text, x, y, { width: c.w - 4, height: 36, ellipsis: true });
      bottom = Math.max(bottom, doc.y);
      x += c.w;
    });
    doc.rect(x + 4, y, 10, 10).stroke();
    doc.y = bottom + 4;
    doc
      .save()
      .strokeColor('#bbbbbb')
      .moveTo(left, doc.y - 2)
      .lineTo(doc.page.width - doc.page.margins.right, doc.y - 2)
      .stroke()
      .restore();
  });
  doc.moveDown(2).font('Helvetica').fontSize(10);
  doc.text('Loaded by (depot): ____________________________    Time: __________', left);
  doc.moveDown(1.2).text('Received by (driver): ____________________________    Signature: ____________________', left);
  doc.end();
  return out;
}
