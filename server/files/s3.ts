import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import * as zlib from 'node:zlib';
import { FILE_KEY, FileStoreError, newFileKey, type FileEntry, type FileStore } from './store';

export interface S3FileStoreOptions {
  bucket: string;
  /** Object names are `<prefix><first two hex of key>/<key>`; empty or ending in `/`. */
  prefix: string;
  region: string;
  /** An S3-compatible service's address (MinIO, Ceph, R2, ...); unset for AWS itself. */
  endpoint?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (most S3-compatibles). */
  forcePathStyle?: boolean;
  /** Unset: the SDK's standard chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, instance role...). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Tries per call, retries on 5xx, throttling and dropped connections with back-off (SDK default 3). */
  maxAttempts?: number;
  /** Objects per ListObjectsV2 page (S3's and the default: 1000). */
  listPageSize?: number;
  /** Longest wait for an answer per try (the SDK waits forever by default); default 30 s. */
  timeoutMs?: number;
}

interface SdkError {
  name?: string;
  $metadata?: { httpStatusCode?: number };
}
const statusOf = (err: unknown) => (err as SdkError | null)?.$metadata?.httpStatusCode;
const isNotFound = (err: unknown) => {
  const name = (err as SdkError | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(err) === 404;
};

/**
 * The CRC32 S3 keeps with the object and checks on arrival, from Node's native zlib (Node ≥ 20.15):
 * cheaper than the SDK computing it in JavaScript (bench/files.ts). Older Node: the SDK computes it.
 */
function crc32Of(bytes: Uint8Array): { ChecksumCRC32: string } | { ChecksumAlgorithm: 'CRC32' } {
  if (typeof zlib.crc32 !== 'function') return { ChecksumAlgorithm: 'CRC32' };
  const b = Buffer.alloc(4);
  b.writeUInt32BE(zlib.crc32(bytes) >>> 0);
  return { ChecksumCRC32: b.toString('base64') };
}

function failed(what: string, err: unknown): FileStoreError {
  const e = err as SdkError | null;
  const status = statusOf(err);
  return new FileStoreError(`File store (S3): ${what} failed: ${e?.name ?? 'error'}${status ? ` (HTTP ${status})` : ''}`, { cause: err });
}

/**
 * Files as objects in an S3 bucket (AWS or any S3-compatible service), so every process on every
 * machine sees the same files. A PUT is atomic (an object exists whole or not at all), so no temp
 * names are needed; each carries a CRC32 the service checks, and reads ask for it back
 * (`ChecksumMode`), so bytes damaged on the way fail the read instead of reaching a user.
 */
export function s3FileStore(options: S3FileStoreOptions): FileStore {
  const { bucket, prefix } = options;
  if (prefix && !prefix.endsWith('/')) throw new Error('S3 prefix must end with "/"');
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    // A bucket that stops answering must fail the request (503), not hold it and its socket forever.
    requestHandler: {
      connectionTimeout: Math.min(5_000, options.timeoutMs ?? 5_000),
      requestTimeout: options.timeoutMs ?? 30_000,
      throwOnRequestTimeout: true,
    },
  });
  // The disk store's layout (`<first two hex>/<key>`), so a files directory moves to a bucket with
  // one `aws s3 sync` and back.
  const name = (key: string) => `${prefix}${key.slice(0, 2)}/${key}`;

  return {
    location: `s3://${bucket}/${prefix}`,
    async put(bytes) {
      const key = newFileKey();
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: name(key),
            Body: bytes,
            ContentLength: bytes.byteLength,
            ContentType: 'application/octet-stream',
            ...crc32Of(bytes),
          }),
        );
      } catch (err) {
        // A PUT that failed may still have landed (the answer was lost): the orphan sweep removes
        // such an object, since no row names its key.
        throw failed('write', err);
      }
      return key;
    },
    async get(key) {
      if (!FILE_KEY.test(key)) return null;
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: name(key), ChecksumMode: 'ENABLED' }));
        if (!out.Body) throw new Error('empty answer');
        const bytes = await out.Body.transformToByteArray();
        if (out.ContentLength !== undefined && bytes.byteLength !== out.ContentLength) throw new Error('body shorter than Content-Length');
        return bytes;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw failed('read', err);
      }
    },
    async delete(key) {
      if (!FILE_KEY.test(key)) return;
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: name(key) }));
      } catch (err) {
        if (isNotFound(err)) return;
        throw failed('delete', err);
      }
    },
    async has(key) {
      if (!FILE_KEY.test(key)) return false;
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: name(key) }));
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw failed('head', err);
      }
    },
    async *list(): AsyncGenerator<FileEntry> {
      let token: string | undefined;
      do {
        let page;
        try {
          page = await client.send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix: prefix,
              ...(options.listPageSize ? { MaxKeys: options.listPageSize } : {}),
              ...(token ? { ContinuationToken: token } : {}),
            }),
          );
        } catch (err) {
          throw failed('list', err);
        }
        for (const o of page.Contents ?? []) {
          const parts = (o.Key?.slice(prefix.length) ?? '').split('/');
          const key = parts[1] ?? '';
          // Only objects this store wrote; anything else under the prefix is left alone.
          if (parts.length !== 2 || !FILE_KEY.test(key) || parts[0] !== key.slice(0, 2) || !o.LastModified) continue;
          yield { key, writtenAt: o.LastModified.getTime() };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
