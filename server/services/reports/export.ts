import { PassThrough, Readable } from 'node:stream';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import { stringify } from 'csv-stringify/sync';
import { csvSafe } from '../../../shared/csvSafe';

export type CellValue = string | number | boolean | null;
export interface Column<R> {
  header: string;
  width?: number;
  value: (row: R) => CellValue;
}
/** Rows a page at a time; an empty page ends the export. Pages are read lazily, as the client downloads. */
export type PageSource<R> = () => Promise<R[]>;

export interface ExportSpec<R> {
  format: 'xlsx' | 'csv';
  /** Without extension; dated by the caller. */
  filename: string;
  sheet: string;
  columns: Column<R>[];
  /** Sent as X-Total-Rows before the body, so a client can show progress of a Content-Length-less download. */
  total: number;
  next: PageSource<R>;
}

/** A text cell a spreadsheet would run as a formula is neutralised; numbers and booleans stay typed. */
export function safeCell(value: CellValue): CellValue {
  return typeof value === 'string' ? csvSafe(value) : value;
}

function csvStream<R>(spec: ExportSpec<R>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          // A BOM so Excel opens UTF-8 text as UTF-8.
          controller.enqueue(encoder.encode(`\uFEFF${stringify([spec.columns.map((c) => c.header)])}`));
          return;
        }
        const rows = await spec.next();
        if (!rows.length) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(stringify(rows.map((r) => spec.columns.map((c) => csvSafe(c.value(r)))))));
      },
    },
    { highWaterMark: 1 },
  );
}

/** Pauses the producer while the client has not taken what was written. */
async function drained(out: PassThrough): Promise<void> {
  if (out.destroyed) return;
  if (out.writableNeedDrain || out.readableLength > out.readableHighWaterMark) {
    await Promise.race([once(out, 'drain'), once(out, 'close'), once(out, 'data')]);
  }
}

/**
 * xlsx through exceljs' streaming WorkbookWriter: each row is committed as it is written, so only
 * a page of rows and the zip buffers are ever held, whatever the period.
 */
function xlsxStream<R>(spec: ExportSpec<R>): ReadableStream<Uint8Array> {
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(spec.sheet);
  sheet.columns = spec.columns.map((c, i) => ({
    header: c.header,
    key: `c${i}`,
    width: c.width ?? Math.min(40, Math.max(10, c.header.length + 2)),
  }));
  const produce = async () => {
    for (;;) {
      if (out.destroyed) return;
      const rows = await spec.next();
      if (!rows.length) break;
      for (const r of rows) sheet.addRow(spec.columns.map((c) => safeCell(c.value(r)))).commit();
      await drained(out);
    }
    sheet.commit();
    await workbook.commit();
  };
  produce().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}

const TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

export function exportResponse<R>(spec: ExportSpec<R>): Response {
  const body = spec.format === 'csv' ? csvStream(spec) : xlsxStream(spec);
  const name = spec.filename.replace(/[^A-Za-z0-9._-]/g, '_');
  return new Response(body, {
    headers: {
      'content-type': TYPES[spec.format],
      'content-disposition': `attachment; filename="${name}.${spec.format}"`,
      'cache-control': 'no-store',
      'x-total-rows': String(spec.total),
      'access-control-expose-headers': 'X-Total-Rows, Content-Disposition',
    },
  });
}

/** A page source over an in-memory list (aggregated reports, whose size is bounded by days and drivers). */
export function pagesOf<R>(rows: R[], size = 1000): PageSource<R> {
  let at = 0;
  return async () => {
    const page = rows.slice(at, at + size);
    at += size;
    return page;
  };
}
