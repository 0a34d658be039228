import { resolve } from 'node:path';
import { diskFileStore } from './disk';
import { s3FileStore, type S3FileStoreOptions } from './s3';
import type { FileStore } from './store';

export { diskFileStore } from './disk';
export { s3FileStore, type S3FileStoreOptions } from './s3';
export { FileStoreError, FILE_KEY, type FileEntry, type FileStore } from './store';

/**
 * Reads `FILES_URL=s3://bucket/prefix?region=…&endpoint=…&path_style=0|1`. The region falls back to
 * `AWS_REGION`, then `us-east-1`; path-style addressing is on by default when an endpoint is given
 * (what S3-compatible services expect). Credentials are never in the URL: the SDK's standard chain
 * reads `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, a profile or the machine's role.
 */
export function parseFilesUrl(url: string, env: { AWS_REGION?: string } = {}): S3FileStoreOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`FILES_URL is not a URL: ${url}`);
  }
  if (parsed.protocol !== 's3:') throw new Error(`FILES_URL must start with s3:// (got ${parsed.protocol}//)`);
  if (parsed.username || parsed.password)
    throw new Error('FILES_URL must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const bucket = parsed.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`FILES_URL names no valid bucket: ${url}`);
  const path = decodeURIComponent(parsed.pathname).replace(/^\/+|\/+$/g, '');
  const known = new Set(['region', 'endpoint', 'path_style']);
  for (const name of parsed.searchParams.keys())
    if (!known.has(name)) throw new Error(`FILES_URL: unknown parameter ${name} (known: ${[...known].join(', ')})`);
  const endpoint = parsed.searchParams.get('endpoint') ?? undefined;
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new Error(`FILES_URL endpoint must be an http(s) address: ${endpoint}`);
  const pathStyle = parsed.searchParams.get('path_style');
  return {
    bucket,
    prefix: path ? `${path}/` : '',
    region: parsed.searchParams.get('region') ?? env.AWS_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: pathStyle === null ? endpoint !== undefined : pathStyle === '1' || pathStyle === 'true',
  };
}

/** The store the configuration names: S3 when `FILES_URL` is set, otherwise the directory `FILES_DIR`. */
export function openFileStore(env: { FILES_URL?: string; FILES_DIR?: string; AWS_REGION?: string }): FileStore {
  if (env.FILES_URL) return s3FileStore(parseFilesUrl(env.FILES_URL, env));
  return diskFileStore(resolve(env.FILES_DIR || './data/files'));
}
