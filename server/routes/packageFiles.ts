import { LIST_FILTERS_DOC, PackageListQuery, UploadAnswer, UploadBody, UploadQuery, UPLOAD_MAX_ROWS } from '../../shared/schemas/package';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { today } from '../services/time/zones';
import { defineRoute } from '../http/route';
import { packagesCsvStream } from '../services/packages/csv';
import { checkUploadSize, MAX_UPLOAD_BYTES } from '../services/packages/sheet';
import { importPackages, type UploadResult } from '../services/packages/upload';
import { packageListWhere, withZone } from '../services/packages/list';

const tags = ['Package'];
const pm = (...names: string[]) => ops('web/Package Model', ...names);

const UPLOAD_DOC =
  `multipart/form-data: \`file\` (at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB and ${UPLOAD_MAX_ROWS} rows) and, for staff, an optional \`company\` ` +
  'for rows without one. The header row names Package fields (`hawb` required; read-only columns of a CSV download are ignored). ' +
  'Every row is validated and reported as `{ row, hawb, status, id, errors }` (`row` counts the header as 1). All or nothing: any ' +
  'rejected row (invalid, duplicate hawb in the file or already in the system, unknown company/zone/suburb) answers 400 with ' +
  'the rejected rows in `details.report` and creates nothing; `?partial=true` creates the good rows. A company uploads only its own packages.';

const answer = (r: UploadResult) => ({
  success: true,
  message: `${r.created} package(s) created${r.unpriced ? `, ${r.unpriced} of them unpriced (no rate line fits: not charged, listed under Unpriced parcels)` : ''}${r.rejected ? `, ${r.rejected} row(s) rejected` : ''}`,
  ...r,
});

async function bytesOf(file: File): Promise<Uint8Array> {
  // The declared size first, so an oversized upload is refused before it is copied again.
  checkUploadSize(file.size);
  return new Uint8Array(await file.arrayBuffer());
}

export function packageFileRoutes(app: App): void {
  const upload = (path: string, id: string, kind: string, read: 'package-csv' | 'package-xlsx') =>
    defineRoute(
      app,
      {
        method: 'post',
        path,
        tags,
        access: 'package.manage',
        catalogue: pm(id),
        summary: `Create packages from a ${kind} file`,
        description: UPLOAD_DOC,
        bodyKind: 'multipart',
        body: UploadBody,
        query: UploadQuery,
        response: UploadAnswer,
        prepare: async ({ body, deps }) => deps.sheets.parse(read, await bytesOf(body.file)),
      },
      async ({ deps, user, body, query, prepared }) =>
        answer(await importPackages(deps, user, prepared, { partial: query.partial, defaultCompany: body.company })),
    );

  upload('/package/bulk-upload/', 'Bulk Upload', 'UTF-8 CSV', 'package-csv');
  upload('/package/excel-upload/', 'Excel Upload', '.xlsx', 'package-xlsx');

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/csv-download/',
      tags,
      access: 'package.view',
      query: PackageListQuery,
      produces: 'text/csv',
      catalogue: pm('Package CSV Download'),
      summary: 'Download the packages you may see as CSV (streamed)',
      description:
        `The same filters as the list (paging and ordering are ignored; rows come in id order). ${LIST_FILTERS_DOC} ` +
        'Cells that a spreadsheet would run as a formula (starting with = + - @, tab or CR) are prefixed with an apostrophe.',
    },
    async ({ deps, user, query }) => {
      const day = await today(deps);
      return new Response(packagesCsvStream(deps.db, user, packageListWhere(user, await withZone(deps, query))), {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="packages-${day}.csv"`,
          'cache-control': 'no-store',
        },
      });
    },
  );
}
