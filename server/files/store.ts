import { randomUUID } from 'node:crypto';

/** One stored object as the orphan sweep sees it. */
export interface FileEntry {
  key: string;
  /** When its bytes were written (ms since epoch), by the store's own clock (file mtime, S3 LastModified). */
  writtenAt: number;
  /**
   * Leftover of a write that never finished (a disk store's temp file after a crash). Its `key` is
   * only good for `delete`; it is never named by a database row.
   */
  partial?: boolean;
}

/**
 * Where uploaded bytes live: a local directory (one machine, any number of processes) or an
 * S3-compatible bucket (any number of machines). Stored files are named by the server (a random
 * key), never by the user, so no user input ever becomes a path or an object name.
 */
export interface FileStore {
  /** Human-readable place for logs (`/srv/courier/files`, `s3://bucket/prefix/`). */
  readonly location: string;
  /** Stores the bytes whole under a fresh key and answers it; throws (and stores nothing under a key) on failure. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes, or null when no object has that key. Throws `FileStoreError` when the store cannot answer. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  has(key: string): Promise<boolean>;
  /** Every stored object, page by page (for the orphan sweep; the store may hold millions). */
  list(): AsyncIterable<FileEntry>;
}

/**
 * The store could not do what was asked (disk full or failing, bucket unreachable or answering
 * 5xx). The request is not at fault and will work later: the error handler answers 503.
 */
export class FileStoreError extends Error {
  readonly code = 'FILE_STORE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FileStoreError';
  }
}

export const FILE_KEY = /^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/;

export function newFileKey(): string {
  return randomUUID();
}
