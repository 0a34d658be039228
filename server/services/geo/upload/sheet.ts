import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { ApiError } from '../../../errors';

export const MAX_SHEET_BYTES = 5 * 1024 * 1024;
export const MAX_SHEET_ROWS = 50_000;
/** A small zip can inflate enormously, so the sizes its directory declares are bounded before it is opened. */
export const MAX_XLSX_INFLATED = 100 * 1024 * 1024;

export type SheetKind = 'csv' | 'xlsx';
/** `line` is the row number a person sees in the spreadsheet (the header is row 1 in a CSV). */
export interface SheetRow { line: number; cells: string[] }
export interface Sheet { kind: SheetKind; header: string[]; rows: SheetRow[] }

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (b: Uint8Array, magic: number[]) => magic.every((m, i) => b[i] === m);

const unsupported = (message: string) => new ApiError(415, 'unsupported_media_type', message, [{ path: 'file', message: 'unsupported type' }]);
const tooMany = () => new ApiError(413, 'payload_too_large', `A file may hold at most ${MAX_SHEET_ROWS} data rows`, [{ path: 'file', message: 'too many rows' }]);

/** The type comes from the bytes, never from the name or the declared type. */
export function sheetKind(bytes: Uint8Array): SheetKind {
  if (startsWith(bytes, ZIP)) return 'xlsx';
  if (startsWith(bytes, OLE)) throw unsupported('Old .xls workbooks are not read; save the sheet as .xlsx or CSV');
  if (bytes.includes(0)) throw unsupported('The file is neither CSV text nor an .xlsx workbook');
  return 'csv';
}

export async function readSheet(bytes: Uint8Array): Promise<Sheet> {
  if (bytes.byteLength === 0) throw new ApiError(400, 'validation_error', 'The file is empty', [{ path: 'file', message: 'empty' }]);
  if (bytes.byteLength > MAX_SHEET_BYTES) {
    throw new ApiError(413, 'payload_too_large', `Files are limited to ${MAX_SHEET_BYTES / 1024 / 1024} MiB`, [{ path: 'file', message: 'too large' }]);
  }
  const kind = sheetKind(bytes);
  const sheet = kind === 'xlsx' ? await readXlsx(bytes) : readCsv(bytes);
  if (!sheet.header.some(Boolean)) throw new ApiError(400, 'validation_error', 'The file has no header row', [{ path: 'file', message: 'no header row' }]);
  return sheet;
}

/** Spreadsheets saved in some locales separate with ";" or tabs: the header line decides. */
function delimiterOf(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => ({ d, n: first.split(d).length - 1 }));
  counts.sort((a, b) => b.n - a.n);
  return counts[0].n > 0 ? counts[0].d : ',';
}

function readCsv(bytes: Uint8Array): Sheet {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw unsupported('CSV files must be UTF-8 text');
  }
  let records: string[][];
  try {
    records = parse(text, {
      bom: true, delimiter: delimiterOf(text.replace(/^\uFEFF/, '')), relax_column_count: true, skip_empty_lines: true,
      trim: true, to: MAX_SHEET_ROWS + 2,
    }) as string[][];
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'unreadable';
    throw new ApiError(400, 'validation_error', `The CSV could not be read: ${reason}`, [{ path: 'file', message: reason }]);
  }
  if (records.length > MAX_SHEET_ROWS + 1) throw tooMany();
  const [header = [], ...rest] = records;
  // A row of empty separators (",,,") is as empty as a blank line.
  const rows = rest.map((cells, i) => ({ line: i + 2, cells })).filter((r) => r.cells.some(Boolean));
  return { kind: 'csv', header, rows };
}

/** Sum of the uncompressed sizes the zip's central directory declares; null when the directory is unreadable. */
export function declaredZipSize(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-directory record is the last 22 bytes plus a comment of up to 64 KiB.
  for (let eocd = bytes.length - 22; eocd >= Math.max(0, bytes.length - 22 - 0xffff); eocd -= 1) {
    if (view.getUint32(eocd, true) !== 0x06054b50) continue;
    const entries = view.getUint16(eocd + 10, true);
    let at = view.getUint32(eocd + 16, true);
    let total = 0;
    for (let i = 0; i < entries; i += 1) {
      if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null;
      total += view.getUint32(at + 24, true);
      at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return total;
  }
  return null;
}

async function readXlsx(bytes: Uint8Array): Promise<Sheet> {
  const inflated = declaredZipSize(bytes);
  if (inflated == null) throw new ApiError(400, 'validation_error', 'The .xlsx workbook could not be read', [{ path: 'file', message: 'not a readable workbook' }]);
  if (inflated > MAX_XLSX_INFLATED) {
    throw new ApiError(413, 'payload_too_large', `The workbook unpacks to more than ${MAX_XLSX_INFLATED / 1024 / 1024} MiB`, [{ path: 'file', message: 'too large unpacked' }]);
  }
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes.slice().buffer);
  } catch {
    throw new ApiError(400, 'validation_error', 'The .xlsx workbook could not be read', [{ path: 'file', message: 'not a readable workbook' }]);
  }
  const ws = book.worksheets[0];
  if (!ws) throw new ApiError(400, 'validation_error', 'The workbook has no sheet', [{ path: 'file', message: 'no sheet' }]);
  if (ws.actualRowCount > MAX_SHEET_ROWS + 1) throw tooMany();
  const rows: SheetRow[] = [];
  ws.eachRow({ includeEmpty: false }, (row, line) => {
    const values = Array.isArray(row.values) ? row.values : [];
    // exceljs numbers cells from 1; index 0 is always empty.
    const cells = Array.from({ length: Math.max(0, values.length - 1) }, (_, i) => cellText(values[i + 1]));
    if (cells.some(Boolean)) rows.push({ line, cells });
  });
  const [header, ...rest] = rows;
  return { kind: 'xlsx', header: header?.cells ?? [], rows: rest };
}

/** Whatever a cell holds (number, rich text, formula result, link) as the text a person sees. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value == null) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((t) => t.text).join('').trim();
    if ('text' in value) return String(value.text).trim();
    if ('result' in value) return cellText(value.result ?? null);
    return '';
  }
  return String(value).trim();
}
