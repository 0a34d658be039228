import { CsvError, parse } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import { ApiError } from '../../../errors';
import { checkRowShape, tooLarge, MAX_CELL_CHARS, MAX_COLUMNS, MAX_XLSX_INFLATED, type SheetLimits } from '../../uploads/limits';
import { xlsxRows } from '../../uploads/xlsxStream';

export const MAX_SHEET_BYTES = 5 * 1024 * 1024;
export const MAX_SHEET_ROWS = 50_000;
const GEO_SHEET_LIMITS: SheetLimits = {
  rows: MAX_SHEET_ROWS,
  columns: MAX_COLUMNS,
  cellChars: MAX_CELL_CHARS,
  inflatedBytes: MAX_XLSX_INFLATED,
};

export type SheetKind = 'csv' | 'xlsx';
/** `line` is the row number a person sees in the spreadsheet (the header is row 1 in a CSV). */
export interface SheetRow {
  line: number;
  cells: string[];
}
export interface Sheet {
  kind: SheetKind;
  header: string[];
  rows: SheetRow[];
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (b: Uint8Array, magic: number[]) => magic.every((m, i) => b[i] === m);

const unsupported = (message: string) =>
  new ApiError(415, 'unsupported_media_type', message, [{ path: 'file', message: 'unsupported type' }]);
const tooMany = () =>
  new ApiError(413, 'payload_too_large', `A file may hold at most ${MAX_SHEET_ROWS} data rows`, [
    { path: 'file', message: 'too many rows' },
  ]);

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
    throw new ApiError(413, 'payload_too_large', `Files are limited to ${MAX_SHEET_BYTES / 1024 / 1024} MiB`, [
      { path: 'file', message: 'too large' },
    ]);
  }
  const kind = sheetKind(bytes);
  const sheet = kind === 'xlsx' ? await readXlsx(bytes) : readCsv(bytes);
  if (!sheet.header.some(Boolean))
    throw new ApiError(400, 'validation_error', 'The file has no header row', [{ path: 'file', message: 'no header row' }]);
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
      bom: true,
      delimiter: delimiterOf(text.replace(/^\uFEFF/, '')),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      to: MAX_SHEET_ROWS + 2,
      max_record_size: MAX_CELL_CHARS * 4,
      on_record: (record: string[], { lines }) => {
        checkRowShape(GEO_SHEET_LIMITS, lines, record.length, record);
        return record;
      },
    }) as string[][];
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof CsvError && err.code === 'CSV_MAX_RECORD_SIZE')
      throw tooLarge(`A row holds more than ${MAX_CELL_CHARS * 4} characters`);
    const reason = err instanceof Error ? err.message : 'unreadable';
    throw new ApiError(400, 'validation_error', `The CSV could not be read: ${reason}`, [{ path: 'file', message: reason }]);
  }
  if (records.length > MAX_SHEET_ROWS + 1) throw tooMany();
  const [header = [], ...rest] = records;
  // A row of empty separators (",,,") is as empty as a blank line.
  const rows = rest.map((cells, i) => ({ line: i + 2, cells })).filter((r) => r.cells.some(Boolean));
  return { kind: 'csv', header, rows };
}

async function readXlsx(bytes: Uint8Array): Promise<Sheet> {
  const rows: SheetRow[] = [];
  for await (const row of xlsxRows(bytes, GEO_SHEET_LIMITS)) {
    const cells = row.values.map((v) => cellText(v ?? null));
    if (cells.some(Boolean)) rows.push({ line: row.number, cells });
  }
  const [header, ...rest] = rows;
  return { kind: 'xlsx', header: header?.cells ?? [], rows: rest };
}

/** Whatever a cell holds (number, rich text, formula result, link) as the text a person sees. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value == null) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((t) => t.text)
        .join('')
        .trim();
    if ('text' in value) return String(value.text).trim();
    if ('result' in value) return cellText(value.result ?? null);
    return '';
  }
  return String(value).trim();
}
