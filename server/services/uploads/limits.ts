import { ApiError } from '../../errors';

/**
 * Bounds every spreadsheet or CSV a user sends, checked while reading so a hostile file stops the
 * reader early instead of being read whole first. A file is parsed in a worker thread
 * (parser.ts), which is also killed when it runs out of time or memory.
 */
export interface SheetLimits {
  /** Data rows (the header not counted). */
  rows: number;
  columns: number;
  /** Characters in one cell. */
  cellChars: number;
  /** Sum of the uncompressed sizes a zip (.xlsx) declares. */
  inflatedBytes: number;
}

export const MAX_COLUMNS = 200;
export const MAX_CELL_CHARS = 4_096;
/** An honest 50k-row sheet of ~20 columns is ~30 MB of XML; a file declaring far more is refused unopened. */
export const MAX_XLSX_INFLATED = 100 * 1024 * 1024;

export const tooLarge = (message: string, path = 'file') => new ApiError(413, 'payload_too_large', message, [{ path, message }]);

export function checkRowShape(limits: SheetLimits, rowNumber: number, width: number, cells: readonly unknown[]): void {
  if (width > limits.columns) throw tooLarge(`Row ${rowNumber} has ${width} columns; at most ${limits.columns} are read`);
  for (const cell of cells) {
    if (typeof cell === 'string' && cell.length > limits.cellChars) {
      throw tooLarge(`A cell in row ${rowNumber} holds more than ${limits.cellChars} characters`);
    }
  }
}

export interface ZipEntry { name: string; crc: number; inflated: number }

/** What the zip's central directory declares, entry by entry; null when there is no readable directory. */
export function zipDirectory(b: Uint8Array): ZipEntry[] | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const stop = Math.max(0, b.length - 22 - 0xffff);
  for (let eocd = b.length - 22; eocd >= stop; eocd -= 1) {
    if (view.getUint32(eocd, true) !== 0x06054b50) continue;
    const count = view.getUint16(eocd + 10, true);
    let at = view.getUint32(eocd + 16, true);
    const entries: ZipEntry[] = [];
    for (let n = 0; n < count; n += 1) {
      if (at + 46 > b.length || view.getUint32(at, true) !== 0x02014b50) return null;
      const nameLength = view.getUint16(at + 28, true);
      if (at + 46 + nameLength > b.length) return null;
      entries.push({
        name: Buffer.from(b.buffer, b.byteOffset + at + 46, nameLength).toString('utf8'),
        crc: view.getUint32(at + 16, true),
        // zip64 says 0xffffffff here: far beyond any sane spreadsheet, so counted as endless.
        inflated: view.getUint32(at + 24, true) === 0xffffffff ? Infinity : view.getUint32(at + 24, true),
      });
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return entries;
  }
  return null;
}

/** Sum of the uncompressed sizes the zip's central directory declares; null when there is no readable directory. */
export function declaredZipSize(b: Uint8Array): number | null {
  const entries = zipDirectory(b);
  return entries === null ? null : entries.reduce((sum, e) => sum + e.inflated, 0);
}
