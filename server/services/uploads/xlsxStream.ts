import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { ApiError } from '../../errors';
import { xlsxInReadingOrder } from './xlsxOrder';
import { checkRowShape, declaredZipSize, tooLarge, type SheetLimits } from './limits';

export interface XlsxRow { number: number; values: ExcelJS.CellValue[] }

export const unreadableWorkbook = () => new ApiError(400, 'validation_error', 'The file is not a readable .xlsx workbook', [{ path: 'file', message: 'unreadable workbook' }]);

/**
 * The rows of the first worksheet, read as a stream: the sheet's XML is never held whole, and the
 * reader stops at the first row over the limits (rows, columns, cell size) instead of after the
 * last one. The zip's declared contents are bounded before anything is inflated.
 */
export async function* xlsxRows(bytes: Uint8Array, limits: SheetLimits): AsyncGenerator<XlsxRow> {
  const inflated = declaredZipSize(bytes);
  if (inflated === null) throw unreadableWorkbook();
  if (inflated > limits.inflatedBytes) throw tooLarge('The spreadsheet unpacks to more than this server reads; split the file');
  let ordered: Readable | null;
  try {
    ordered = xlsxInReadingOrder(bytes);
  } catch {
    throw unreadableWorkbook();
  }
  if (ordered === null) return; // no worksheet: no rows
  // Loaded only for workbooks: the reader's thread boots faster for CSV.
  const { default: excel } = await import('exceljs');
  const reader = new excel.stream.xlsx.WorkbookReader(ordered, {
    worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', entries: 'ignore',
  });
  let seen = 0;
  try {
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        if (values.every((v) => v == null || v === '')) continue;
        seen += 1;
        // The header plus `rows` data rows; one more is enough to know the file is too long.
        if (seen > limits.rows + 1) throw tooLarge(`An upload holds at most ${limits.rows} rows; split the file`);
        checkRowShape(limits, row.number, values.length, values.map((v) => (typeof v === 'string' ? v : typeof v === 'object' && v && 'richText' in v ? v.richText.map((r) => r.text).join('') : null)));
        yield { number: row.number, values };
      }
      return; // the first worksheet only
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw unreadableWorkbook();
  } finally {
    ordered.destroy(); // stops inflating when the reader stopped early
  }
}
