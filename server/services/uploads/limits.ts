import { ApiError } from '../../errors';
import type { ZipEntry } from './zipEntries';

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

/** Sum of the uncompressed sizes a zip's central directory declares (zipEntries.ts `zipDirectory`). */
export const declaredSize = (entries: readonly ZipEntry[]): number => entries.reduce((sum, e) => sum + e.inflated, 0);
