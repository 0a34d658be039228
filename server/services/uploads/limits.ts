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

/** Sum of the uncompressed sizes the zip's central directory declares; null when there is no readable directory. */
export function declaredZipSize(b: Uint8Array): number | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const stop = Math.max(0, b.length - 22 - 0xffff);
  for (let eocd = b.length - 22; eocd >= stop; eocd -= 1) {
    if (view.getUint32(eocd, true) !== 0x06054b50) continue;
    const entries = view.getUint16(eocd + 10, true);
    let at = view.getUint32(eocd + 16, true);
    let total = 0;
    for (let n = 0; n < entries; n += 1) {
      if (at + 46 > b.length || view.getUint32(at, true) !== 0x02014b50) return null;
      const size = view.getUint32(at + 24, true);
      if (size === 0xffffffff) return Infinity; // zip64: far beyond any sane spreadsheet here
      total += size;
      at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return total;
  }
  return null;
}
