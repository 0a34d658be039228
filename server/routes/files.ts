import { z } from 'zod';
import { IdParams } from '../../shared/schemas/common';
import { isStaff } from '../../shared/roles';
import { iso } from '../clock';
import { notFound } from '../errors';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { checkUpload, fileById, FILE_KINDS, recordFile, settleUpload, writeBytes, type StoredFile } from '../services/files/store';
import { userFileResponse } from '../services/files/serve';

export const UploadBody = z.object({
  file: z.instanceof(File, { message: 'a file is required' }),
  kind: z.enum(FILE_KINDS).default('photo'),
  client_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/)
    .optional(),
  sha256: z
    .string()
    .regex(/^[a-fA-F0-9]{64}$/)
    .optional(),
});

export const FileRecord = z.object({
  id: z.number().int(),
  client_id: z.string().nullable(),
  sha256: z.string(),
  mime: z.string(),
  size: z.number().int(),
  kind: z.string(),
  url: z.string(),
  created_at: z.string(),
});
export const toFileRecord = (f: StoredFile) => ({
  id: f.id,
  client_id: f.client_id,
  sha256: f.sha256,
  mime: f.mime,
  size: f.size,
  kind: f.kind,
  url: `/api/file/${f.id}/`,
  created_at: iso(f.created_at) ?? '',
});

export function fileRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/file/',
      tags: ['Files'],
      access: 'authenticated',
      catalogue: [],
      summary: 'Upload a photo, signature or document (one per request, idempotent by client_id)',
      description:
        'multipart/form-data with `file`, `kind`, optional `client_id` (chosen by the device) and `sha256`. Type is checked by content; 10 MiB at most.',
      bodyKind: 'multipart',
      body: UploadBody,
      response: FileRecord,
      status: 201,
      prepare: async ({ deps, body, user }) => {
        const upload = checkUpload(new Uint8Array(await body.file.arrayBuffer()), body.kind, body.sha256);
        return { upload, written: await writeBytes(deps, upload, user.id) };
      },
      settle: ({ written }, deps) => settleUpload(deps, written),
    },
    async ({ deps, user, body, prepared }) =>
      toFileRecord(
        await recordFile(deps.db, deps.clock.now(), user.id, prepared.written.key, prepared.upload, body.kind, body.client_id ?? null),
      ),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/file/{id}/',
      tags: ['Files'],
      access: 'authenticated',
      catalogue: [],
      params: IdParams,
      summary: 'Download a file you uploaded (staff: any file)',
      produces: 'application/octet-stream',
    },
    async ({ deps, user, params }) => {
      const row = await fileById(deps.db, params.id);
      if (!row || (row.owner_id !== user.id && !isStaff(user.role))) throw notFound(`File ${params.id} not found`);
      const bytes = await deps.files.get(row.key);
      if (!bytes) throw notFound(`File ${params.id} is missing from storage`);
      return userFileResponse(row, bytes, 'private, no-store');
    },
  );
}
