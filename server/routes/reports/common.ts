import type { Context } from 'hono';
import { pageLinks } from '../../resources/list';
import type { AppEnv } from '../../http/env';

export const tags = ['Reports'];

export const FILTER_DOC =
  'Filters: `from`/`to` (local days, both included; default the last 30 days, at most 366), `company`, `driver`, `zone`, ' +
  "`time_zone` (IANA name the days are counted in; default the business's, daylight saving included; older clients may send `utc_offset`, " +
  'minutes east of UTC, a fixed offset). A company login sees only its own company (another company is 404).';
export const EXPORT_DOC =
  'Streamed (no Content-Length): rows are read a page at a time while the client downloads; the header ' +
  '`X-Total-Rows` gives the row count first so a client can show progress. `format=xlsx|csv`. Text cells starting with = + - @, tab or CR ' +
  'get a leading apostrophe so a spreadsheet never runs them.';

/** A computed list paged like every list: `{ count, next, previous, results }`. */
export function pageOfList<T>(c: Context<AppEnv>, rows: T[], page: number, pageSize: number) {
  return {
    count: rows.length,
    ...pageLinks(c.req.url, page, pageSize, rows.length),
    results: rows.slice((page - 1) * pageSize, page * pageSize),
  };
}

export const stamp = (f: { from: string; to: string }) => `${f.from}_${f.to}`;
