import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { ApiError } from '../../errors';
import { xlsxInReadingOrder } from './xlsxOrder';
import { checkRowShape, declaredSize, tooLarge, type SheetLimits } from './limits';
import { zipDirectory } from './zipEntries';

export interface XlsxRow {
  number: number;
  values: ExcelJS.CellValue[];
}

export const unreadableWorkbook = () =>
  new ApiError(400, 'validation_error', 'The file is not a readable .xlsx workbook', [{ path: 'file', message: 'unreadable workbook' }]);

/**
 * The rows of the first worksheet, read as a stream: the sheet's XML is never held whole, and the
 * reader stops at the first row over the limits (rows, columns, cell size) instead of after the
 * last one. The zip's declared contents are bounded before anything is inflated.
 */
export async function* xlsxRows(bytes: Uint8Array, limits: SheetLimits): AsyncGenerator<XlsxRow> {
  const entries = zipDirectory(bytes);
  if (entries === null) throw unreadableWorkbook();
  if (declaredSize(entries) > limits.inflatedBytes)
    throw tooLarge('The spreadsheet unpacks to more than this server reads; split the file');
  let ordered: Uint8Array | null;
  try {
    ordered = xlsxInReadingOrder(bytes, entries);
  } catch {
    throw unreadableWorkbook();
  }
  if (ordered === null) return; // no worksheet: no rows
  // Loaded only for workbooks: the reader's thread boots faster for CSV.
  const { default: excel } = await import('exceljs');
  const source = new WatchedSource(ordered);
  const reader = new excel.stream.xlsx.WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  let seen = 0;
  try {
    const first = await source.next(reader[Symbol.asyncIterator]());
    if (first.done) return;
    const rows = first.value[Symbol.asyncIterator]();
    for (let step = await source.next(rows); !step.done; step = await source.next(rows)) {
      const row = step.value;
      const values = Array.isArray(row.values) ? row.values.slice(1) : [];
      if (values.every((v) => v == null || v === '')) continue;
      seen += 1;
      // The header plus `rows` data rows; one more is enough to know the file is too long.
      if (seen > limits.rows + 1) throw tooLarge(`An upload holds at most ${limits.rows} rows; split the file`);
      checkRowShape(
        limits,
        row.number,
        values.length,
        values.map((v) =>
          typeof v === 'string' ? v : typeof v === 'object' && v && 'richText' in v ? v.richText.map((r) => r.text).join('') : null,
        ),
      );
      yield { number: row.number, values };
    }
    // The first worksheet only: the reordered zip holds no other.
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw unreadableWorkbook();
  }
}

/**
 * The zip handed to exceljs, which pipes it into its unzipper. When a part's deflate data is broken,
 * unzipper reports it on that pipe's far end only and the worksheet's rows simply stop coming: the
 * reader would wait for the worker's time limit. This source hears the error there (exceljs's one
 * `pipe` call) and fails whatever is being waited on.
 */
class WatchedSource extends Readable {
  private failure: Error | null = null;
  private fail: ((err: Error) => void) | null = null;

  constructor(bytes: Uint8Array) {
    super();
    this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    this.push(null);
  }

  override _read(): void {}

  override pipe<T extends NodeJS.WritableStream>(dest: T, options?: { end?: boolean }): T {
    (dest as unknown as NodeJS.EventEmitter).once('error', (err: Error) => {
      this.failure = err;
      this.fail?.(err);
    });
    return super.pipe(dest, options);
  }

  /** `it.next()`, or the pipe's error if that comes first. */
  next<T>(it: AsyncIterator<T>): Promise<IteratorResult<T>> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.fail = reject;
      it.next().then(resolve, reject);
    });
  }
}
