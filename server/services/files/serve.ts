import type { StoredFile } from './store';

/** Image types a browser may show in place; everything else a user uploaded (PDFs...) is downloaded. */
const INLINE = new Set(['image/jpeg', 'image/png', 'image/webp']);

/**
 * A user's file as an answer: images inline, anything else as an attachment, never sniffed into
 * another type (the app-wide CSP, `script-src 'self'`, applies on top).
 */
export function userFileResponse(file: Pick<StoredFile, 'id' | 'mime'>, bytes: Uint8Array, cacheControl: string): Response {
  const ext = file.mime === 'application/pdf' ? 'pdf' : (file.mime.split('/')[1] ?? 'bin');
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'Content-Type': file.mime,
      'Cache-Control': cacheControl,
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': INLINE.has(file.mime) ? 'inline' : `attachment; filename="file-${file.id}.${ext}"`,
    },
  });
}
