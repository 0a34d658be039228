import { isApiErrorBody } from '../../shared/errors';
import { signOut } from '../app/session';
import { ApiError, apiUrl, authHeaders, type Query } from './client';

/**
 * Multipart upload through XMLHttpRequest, because fetch still cannot report upload progress.
 * `onProgress` gets 0..1 for the bytes sent; the answer is parsed like any other API call.
 */
export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  onProgress: (fraction: number) => void,
  query?: Query,
): { promise: Promise<T>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open('POST', apiUrl(path, query));
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as T);
        return;
      }
      if (xhr.status === 401) signOut('expired');
      reject(
        isApiErrorBody(body)
          ? new ApiError(xhr.status, body.code, body.message, body.errors ?? [], body.details)
          : new ApiError(xhr.status, 'http_error', `The server answered ${xhr.status}`),
      );
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', navigator.onLine ? 'The server cannot be reached' : 'You are offline'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/** Downloads an authenticated file (CSV export) and hands it to the browser as a save. */
export async function downloadFile(path: string, query: Query, fallbackName: string): Promise<void> {
  const res = await fetch(apiUrl(path, query), { headers: authHeaders() });
  if (!res.ok) {
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      /* not JSON */
    }
    throw isApiErrorBody(body)
      ? new ApiError(res.status, body.code, body.message, body.errors ?? [])
      : new ApiError(res.status, 'http_error', `The server answered ${res.status}`);
  }
  const blob = await res.blob();
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
