import type ExcelJS from 'exceljs';
import { CsvError, parse } from 'csv-parse/sync';
import { ApiError } from '../../errors';
import { UPLOAD_MAX_ROWS } from '../../../shared/schemas/package';
import { checkRowShape, tooLarge, MAX_CELL_CHARS, MAX_COLUMNS, MAX_XLSX_INFLATED, type SheetLimits } from '../uploads/limits';
import { xlsxRows } from '../uploads/xlsxStream';

/** A value as a spreadsheet holds it; uploads convert it to the field's type. */
export type Cell = string | number | boolean | Date | null;
export interface SheetRow {
  row: number;
  cells: Cell[];
}
/** `row` numbers count the header as row 1, as a spreadsheet shows them. */
export interface Sheet {
  header: string[];
  rows: SheetRow[];
}

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const PACKAGE_SHEET_LIMITS: SheetLimits = {
  rows: UPLOAD_MAX_ROWS,
  columns: MAX_COLUMNS,
  cellChars: MAX_CELL_CHARS,
  inflatedBytes: MAX_XLSX_INFLATED,
};

const unsupported = (message: string) =>
  new ApiError(415, 'unsupported_media_type', message, [{ path: 'file', message: 'unsupported type' }]);
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
    // One line past the limit is enough to know the file is too long; a record over the cell and
    // column bounds stops the parser where it is.
    records = parse(text, {
      bom: true,
      relax_column_count: true,
      to_line: UPLOAD_MAX_ROWS + 2,
      max_record_size: MAX_CELL_CHARS * 4,
      on_record: (record: string[], { lines }) => {
        checkRowShape(PACKAGE_SHEET_LIMITS, lines, record.length, record);
        return record;
      },
    }) as string[][];
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof CsvError && err.code === 'CSV_MAX_RECORD_SIZE')
      throw tooLarge(`A row holds more than ${MAX_CELL_CHARS * 4} characters`);
    if (err instanceof CsvError) {
      throw new ApiError(400, 'validation_error', `The CSV is malformed: ${err.message}`, [{ path: 'file', message: err.message }]);
    }
    throw err;
  }
  if (records.length > UPLOAD_MAX_ROWS + 1) throw tooManyRows();
  return splitHeader(records);
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

/** The first worksheet of an .xlsx, streamed and stopped at the first row over the limits (uploads/xlsxStream.ts). */
export async function readXlsx(bytes: Uint8Array): Promise<Sheet> {
  checkUploadSize(bytes.byteLength);
  if (!isZip(bytes)) throw unsupported('An Excel upload must be an .xlsx file');
  let header: string[] | null = null;
  const rows: SheetRow[] = [];
  for await (const row of xlsxRows(bytes, PACKAGE_SHEET_LIMITS)) {
    const cells = row.values.map(plain);
    if (header === null) header = cells.map((c) => (c == null ? '' : String(c)));
    else rows.push({ row: row.number, cells });
  }
  if (header === null)
    throw new ApiError(400, 'validation_error', 'The workbook has no worksheet', [{ path: 'file', message: 'no worksheet' }]);
  return { header, rows };
}
