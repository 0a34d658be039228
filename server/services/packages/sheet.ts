import ExcelJS from 'exceljs';
import { CsvError, parse } from 'csv-parse/sync';
import { ApiError } from '../../errors';
import { UPLOAD_MAX_ROWS } from '../../../shared/schemas/package';

/** A value as a spreadsheet holds it; uploads convert it to the field's type. */
export type Cell = string | number | boolean | Date | null;
export interface SheetRow { row: number; cells: Cell[] }
/** `row` numbers count the header as row 1, as a spreadsheet shows them. */
export interface Sheet { header: string[]; rows: SheetRow[] }

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** An xlsx is a zip: a small file can inflate enormously, so its declared contents are bounded too. */
export const MAX_XLSX_INFLATED = 200 * 1024 * 1024;

const tooLarge = (message: string) => new ApiError(413, 'payload_too_large', message);
const unsupported = (message: string) => new ApiError(415, 'unsupported_media_type', message, [{ path: 'file', message: 'unsupported type' }]);
const unreadable = () => new ApiError(400, 'validation_error', 'The file is not a readable .xlsx workbook', [{ path: 'file', message: 'unreadable workbook' }]);
const tooManyRows = () => tooLarge(`An upload holds at most ${UPLOAD_MAX_ROWS} rows; split the file`);

export function checkUploadSize(size: number): void {
  if (size === 0) throw new ApiError(400, 'validation_error', 'The file is empty', [{ path: 'file', message: 'empty' }]);
  if (size > MAX_UPLOAD_BYTES) throw tooLarge(`Upload files are limited to ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB`);
}

const isZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

function splitHeader(records: Cell[][]): Sheet {
  const [header = [], ...rest] = records;
  return { header: header.map((h) => (h == null ? '' : String(h))), rows: rest.map((cells, i) => ({ row: i + 2, cells })) };
}

/** UTF-8 CSV with a header row; a BOM is allowed, binary content is refused by content, not by name. */
export function readCsv(bytes: Uint8Array): Sheet {
  checkUploadSize(bytes.byteLength);
  if (isZip(bytes)) throw unsupported('This is an Excel (zip) file; send it to the Excel upload');
  if (bytes.includes(0)) throw unsupported('A CSV upload must be text');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw unsupported('A CSV upload must be UTF-8 text');
  }
  let records: string[][];
  try {
    // One line past the limit is enough to know the file is too long, without parsing the rest.
    records = parse(text, { bom: true, relax_column_count: true, to_line: UPLOAD_MAX_ROWS + 2 }) as string[][];
  } catch (err) {
    if (err instanceof CsvError) {
      throw new ApiError(400, 'validation_error', `The CSV is malformed: ${err.message}`, [{ path: 'file', message: err.message }]);
    }
    throw err;
  }
  if (records.length > UPLOAD_MAX_ROWS + 1) throw tooManyRows();
  return splitHeader(records);
}

/** Sum of the uncompressed sizes the zip's central directory declares; null when there is no readable directory. */
export function declaredZipSize(b: Uint8Array): number | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const stop = Math.max(0, b.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = b.length - 22; i >= stop; i -= 1) {
    if (view.getUint32(i, true) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) return null;
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

function plain(value: ExcelJS.CellValue): Cell {
  if (value == null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('hyperlink' in value) return value.text;
  if ('formula' in value || 'sharedFormula' in value) {
    const result = value.result;
    return result == null || (typeof result === 'object' && !(result instanceof Date)) ? null : result;
  }
  // An error cell (#N/A...) is kept as its text so the row is rejected, not silently emptied.
  if ('error' in value) return value.error;
  return null;
}

/** The first worksheet of an .xlsx; checked as a zip by its first bytes and bounded before inflating. */
export async function readXlsx(bytes: Uint8Array): Promise<Sheet> {
  checkUploadSize(bytes.byteLength);
  if (!isZip(bytes)) throw unsupported('An Excel upload must be an .xlsx file');
  const inflated = declaredZipSize(bytes);
  if (inflated === null) throw unreadable();
  if (inflated > MAX_XLSX_INFLATED) throw tooLarge('The spreadsheet inflates to more than this server accepts; split the file');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(new Uint8Array(bytes).buffer);
  } catch {
    throw unreadable();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new ApiError(400, 'validation_error', 'The workbook has no worksheet', [{ path: 'file', message: 'no worksheet' }]);
  if (sheet.actualRowCount > UPLOAD_MAX_ROWS + 1) throw tooManyRows();
  let header: string[] | null = null;
  const rows: SheetRow[] = [];
  const width = sheet.columnCount;
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: Cell[] = [];
    for (let col = 1; col <= width; col += 1) cells.push(plain(row.getCell(col).value));
    if (header === null) header = cells.map((c) => (c == null ? '' : String(c)));
    else rows.push({ row: rowNumber, cells });
  });
  return { header: header ?? [], rows };
}
