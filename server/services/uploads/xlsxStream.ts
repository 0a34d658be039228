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
  // A zip that breaks mid-sheet (bad deflate data) ends our stream with an error that exceljs,
  // which only pipes it, never hears: every wait on the reader races it instead of hanging.
  const broken = new Promise<never>((_, reject) => ordered.once('error', reject));
  broken.catch(() => undefined);
  const next = <T>(it: AsyncIterator<T>) => Promise.race([it.next(), broken]);
  let seen = 0;
  try {
    const first = await next(reader[Symbol.asyncIterator]());
    if (first.done) return;
    const rows = first.value[Symbol.asyncIterator]();
    for (let step = await next(rows); !step.done; step = await next(rows)) {
      const row = step.value;
      const values = Array.isArray(row.values) ? row.values.slice(1) : [];
      if (values.every((v) => v == null || v === '')) continue;
      seen += 1;
      // The header plus `rows` data rows; one more is enough to know the file is too long.
      if (seen > limits.rows + 1) throw tooLarge(`An upload holds at most ${limits.rows} rows; split the file`);
      checkRowShape(limits, row.number, values.length, values.map((v) => (typeof v === 'string' ? v : typeof v === 'object' && v && 'richText' in v ? v.richText.map((r) => r.text).join('') : null)));
      yield { number: row.number, values };
    }
    // The first worksheet only: the reordered zip holds no other.
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw unreadableWorkbook();
  } finally {
    ordered.destroy(); // stops inflating when the reader stopped early
  }
}
