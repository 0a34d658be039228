import { apiUrl, authHeaders, errorFromResponse, type Query } from '../api/client';

export interface DownloadProgress {
  bytes: number;
  /** Data rows seen so far; counted only for CSV (line breaks), never for binary formats. */
  rows: number | null;
  /** From `X-Total-Rows`, when the server sent it. */
  totalRows: number | null;
  /** 0..1 when it can be known (rows of a CSV, or bytes against Content-Length), null otherwise. */
  fraction: number | null;
}

export interface Downloaded {
  blob: Blob;
  name: string;
  progress: DownloadProgress;
}

function fileName(res: Response, fallback: string): string {
  const disposition = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (star) {
    try {
      return decodeURIComponent(star);
    } catch {
      /* fall through to the plain name */
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/**
 * Fetches an authenticated file as a stream, reporting bytes (and rows for CSV) as they arrive.
 * Report exports have no Content-Length (the server writes them while reading pages), so the row
 * count of `X-Total-Rows` is what turns bytes into a percentage. Aborting the signal stops the
 * transfer and rejects with an AbortError.
 */
export async function fetchWithProgress(
  path: string,
  query: Query,
  fallbackName: string,
  onProgress: (p: DownloadProgress) => void,
  signal?: AbortSignal,
): Promise<Downloaded> {
  const res = await fetch(apiUrl(path, query), { headers: authHeaders(), signal });
  if (!res.ok) throw await errorFromResponse(res);
  const totalHeader = res.headers.get('x-total-rows');
  const totalRows = totalHeader != null && /^\d+$/.test(totalHeader) ? Number(totalHeader) : null;
  const length = Number(res.headers.get('content-length') ?? '') || null;
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  const isCsv = /text\/csv/.test(type);
  const progress: DownloadProgress = { bytes: 0, rows: isCsv ? 0 : null, totalRows, fraction: null };
  const chunks: Uint8Array[] = [];
  let lines = 0;
  const reader = res.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      progress.bytes += value.byteLength;
      if (isCsv) {
        for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
        // The first line is the header row.
        progress.rows = Math.max(0, lines - 1);
      }
      progress.fraction =
        isCsv && totalRows ? Math.min(0.99, (progress.rows ?? 0) / totalRows) : length ? Math.min(0.99, progress.bytes / length) : null;
      onProgress({ ...progress });
    }
  } else {
    const buf = new Uint8Array(await res.arrayBuffer());
    chunks.push(buf);
    progress.bytes = buf.byteLength;
  }
  if (isCsv && totalRows != null) progress.rows = totalRows;
  progress.fraction = 1;
  onProgress({ ...progress });
  return { blob: new Blob(chunks as BlobPart[], { type }), name: fileName(res, fallbackName), progress };
}

/** Hands a Blob to the browser as a saved file. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later: Chromium reads the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/**
 * Opens an authenticated PDF in a new tab. The tab is opened before the fetch so pop-up blockers
 * see it as the click's own window; it is closed again when the fetch fails.
 */
export async function openBlobInTab(path: string, query: Query = {}): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const res = await fetch(apiUrl(path, query), { headers: authHeaders() });
    if (!res.ok) throw await errorFromResponse(res);
    const url = URL.createObjectURL(await res.blob());
    if (tab) tab.location.href = url;
    else window.location.assign(url);
    setTimeout(() => URL.revokeObjectURL(url), 120_000);
  } catch (err) {
    tab?.close();
    throw err;
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
