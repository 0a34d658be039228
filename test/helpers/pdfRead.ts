import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';

/**
 * Reading a PDF back as a person and a scanner would (issue 36): poppler draws a page to pixels
 * (pdftoppm), ZXing reads the barcodes off those pixels, and pdftotext says where each word landed.
 */
const run = promisify(execFile);

export interface GreyPage {
  width: number;
  height: number;
  /** One byte per pixel, 0 black to 255 white, row by row. */
  data: Uint8Array;
  dpi: number;
}

/** Page `page` (1-based) as a greyscale PGM (P5), drawn by pdftoppm: nothing to decode but the header. */
export async function greyPage(pdf: string, page = 1, dpi = 150): Promise<GreyPage> {
  const out = `${pdf}-p${page}-${dpi}`;
  await run('pdftoppm', ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', pdf, out]);
  const buf = readFileSync(`${out}.pgm`);
  const m = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(buf.subarray(0, 40).toString('latin1'));
  if (!m) throw new Error('not a PGM');
  return { width: Number(m[1]), height: Number(m[2]), data: buf.subarray(m[0].length), dpi };
}

/** Reads a barcode of the given formats on a drawn page with ZXing: what a scanner would read. */
export function decodeBarcode(img: GreyPage, formats: BarcodeFormat[]): string {
  const reader = new MultiFormatReader();
  reader.setHints(
    new Map<DecodeHintType, unknown>([
      [DecodeHintType.POSSIBLE_FORMATS, formats],
      [DecodeHintType.TRY_HARDER, true],
    ]),
  );
  const lum = new Uint8ClampedArray(img.data);
  return reader.decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(lum, img.width, img.height)))).getText();
}

/** One word as poppler lays it out, its box in PDF points from the page's top left. */
export interface Word {
  page: number;
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** Every word of the PDF with its box (`pdftotext -bbox`). */
export async function pdfWords(pdf: string): Promise<{ words: Word[]; pages: { width: number; height: number }[] }> {
  const html = (await run('pdftotext', ['-bbox', pdf, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  const words: Word[] = [];
  const pages: { width: number; height: number }[] = [];
  for (const part of html.split('<page ').slice(1)) {
    const size = /width="([\d.]+)" height="([\d.]+)"/.exec(part);
    pages.push({ width: Number(size?.[1]), height: Number(size?.[2]) });
    for (const m of part.matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)) {
      words.push({
        page: pages.length,
        text: unescape(m[5] ?? ''),
        x0: Number(m[1]),
        y0: Number(m[2]),
        x1: Number(m[3]),
        y1: Number(m[4]),
      });
    }
  }
  return { words, pages };
}

/**
 * Pairs of words on the same page whose boxes overlap by more than `slack` points both ways: text
 * drawn over text. Boxes are the font's full height, so lines set tight may touch by a point or so.
 */
export function overprinted(words: Word[], slack = 1.5): [Word, Word][] {
  const hits: [Word, Word][] = [];
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j < words.length; j++) {
      const a = words[i] as Word;
      const b = words[j] as Word;
      if (a.page !== b.page) continue;
      const dx = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const dy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (dx > slack && dy > slack) hits.push([a, b]);
    }
  }
  return hits;
}

/**
 * The longest run of dark pixels down the column at `xPt` (points), as [top, bottom] in points: where a
 * filled box such as the label's zone banner starts and ends on the drawn page.
 */
export function darkRunDown(img: GreyPage, xPt: number): [number, number] {
  const px = Math.round((xPt * img.dpi) / 72);
  let best: [number, number] = [0, 0];
  let start = -1;
  for (let y = 0; y <= img.height; y++) {
    const dark = y < img.height && (img.data[y * img.width + px] ?? 255) < 96;
    if (dark && start < 0) start = y;
    if (!dark && start >= 0) {
      if (y - start > best[1] - best[0]) best = [start, y];
      start = -1;
    }
  }
  return [(best[0] * 72) / img.dpi, (best[1] * 72) / img.dpi];
}
