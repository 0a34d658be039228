import { z } from 'zod';
import { PACKAGE_STATUSES } from '../../../shared/lifecycle';
import { ListQuery } from '../../../shared/schemas/common';
import { PackageListAnswer, UploadAnswer, UploadBody, UploadQuery, UPLOAD_MAX_ROWS } from '../../../shared/schemas/package';
import { forbidden } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { checkUploadSize, MAX_UPLOAD_BYTES } from '../../services/packages/sheet';
import { importPackages } from '../../services/packages/upload';
import { companyOfApiKey } from '../../services/webhooks/apiKeys';
import { companyPackagePage } from '../../services/webhooks/companyPackages';

const KeyQuery = ListQuery.omit({ search: true, ordering: true }).extend({
  hawb: z.string().trim().min(1).max(64).optional(),
  status: z.enum(PACKAGE_STATUSES).optional(),
  /** Packages changed since (ISO time): lets an integration poll for what is new. */
  updated_since: z.iso.datetime({ offset: true }).optional(),
});

export function companyApiRoutes(app: App): void {
  const upload = (path: string, id: string, kind: string, read: 'package-csv' | 'package-xlsx') =>
    defineRoute(
      app,
      {
        method: 'post',
        path,
        tags: ['Company Package Upload'],
        access: 'package.manage',
        catalogue: ops('web/Company Package Upload', id),
        summary: `A company uploads its packages from a ${kind} file`,
        bodyKind: 'multipart',
        body: UploadBody,
        query: UploadQuery,
        response: UploadAnswer,
        description:
          `Company logins only. multipart \`file\` (at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB, ${UPLOAD_MAX_ROWS} rows); the columns and checks ` +
          "of package/bulk-upload/; every row is the company's own (a `company` column naming another is rejected). All or nothing unless `?partial=true`. " +
          "Each new package raises package.created for the company's webhook endpoints.",
        prepare: async ({ body, user, deps }) => {
          if (user.role !== 'company') throw forbidden('This upload is for company logins; staff use package/bulk-upload/');
          checkUploadSize(body.file.size);
          return deps.sheets.parse(read, new Uint8Array(await body.file.arrayBuffer()));
        },
      },
      async ({ deps, user, query, prepared }) => {
        const r = await importPackages(deps, user, prepared, { partial: query.partial });
        return { success: true, message: `${r.created} package(s) created${r.rejected ? `, ${r.rejected} row(s) rejected` : ''}`, ...r };
      },
    );
  upload('/company-package/csv-upload/', 'Company CSV Upload', 'UTF-8 CSV', 'package-csv');
  upload('/company-package/excel-upload/', 'Company Excel Upload', '.xlsx', 'package-xlsx');

  defineRoute(
    app,
    {
      method: 'get',
      path: '/company-key/package/',
      tags: ['Package by Company Key'],
      access: 'public',
      query: KeyQuery,
      response: PackageListAnswer,
      catalogue: ops('web/Package by Company Key', 'Get Package'),
      summary: "A company's system reads its packages with an API key",
      description:
        'Header `X-Api-Key` (from company-api-key/) instead of a login; a missing, unknown or revoked key, or a company that is not active, is 401. ' +
        "Only that company's packages, newest first; filters `hawb`, `status`, `updated_since`.",
    },
    async ({ deps, c, query }) => {
      const companyId = await companyOfApiKey(deps.db, c.req.header('x-api-key'), deps.clock.now());
      return companyPackagePage(deps.db, companyId, query, c.req.url);
    },
  );
}
