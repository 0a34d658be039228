import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { FILE_KEY, FileStoreError, newFileKey, type FileEntry, type FileStore } from './store';

/**
 * A write in progress: `<key>.<pid>-<random>.tmp` beside where the file will be. The name is unique
 * per writer, so processes sharing the directory never write into each other's files; the
 * `<key>.tmp` of older versions is still recognised so the sweep removes it.
 */
const PARTIAL = /^([a-f0-9-]{36})(\.[0-9]+-[a-f0-9]+)?\.tmp$/;

/** Missing is an answer (null/false); anything else (EIO, EACCES, ENOSPC...) is the store failing. */
function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function failed(what: string, err: unknown): FileStoreError {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return new FileStoreError(`File store: ${what} failed${code ? ` (${code})` : ''}`, { cause: err });
}

/**
 * Files under `dir/<first two hex>/<key>`. Several processes on one machine may share the directory:
 * each write goes to a temp name of its own, is flushed to disk, then renamed into place (atomic on
 * one file system), so a reader sees a whole file or none, and a crash never leaves a half file
 * under a key the database names.
 */
export function diskFileStore(dir: string): FileStore {
  const root = resolve(dir);
  const shard = (key: string) => join(root, key.slice(0, 2));
  const pathOf = (key: string) => join(shard(key), key);

  async function syncDir(path: string): Promise<void> {
    // The rename is only durable once the directory entry is; some file systems refuse to open a
    // directory for sync (EISDIR/EINVAL/EPERM), where the rename is already durable enough.
    const handle = await open(path, 'r').catch(() => null);
    if (!handle) return;
    try {
      await handle.sync();
    } catch {
      /* see above */
    } finally {
      await handle.close();
    }
  }

  return {
    location: root,
    async put(bytes) {
      const key = newFileKey();
      const path = pathOf(key);
      const tmp = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
      try {
        await mkdir(shard(key), { recursive: true });
        // `wx`: never open someone else's file. Flushed before the rename so the answer the server
        // gives ("stored") survives a power cut like the database row that names it.
        const handle = await open(tmp, 'wx');
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(tmp, path);
        await syncDir(shard(key));
        return key;
      } catch (err) {
        await rm(tmp, { force: true }).catch(() => undefined);
        throw failed('write', err);
      }
    },
    async get(key) {
      if (!FILE_KEY.test(key)) return null;
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (err) {
        if (isMissing(err)) return null;
        throw failed('read', err);
      }
    },
    async delete(key) {
      const partial = PARTIAL.exec(key);
      const name = partial ? key : FILE_KEY.test(key) ? key : null;
      if (!name) return;
      try {
        await rm(join(shard(name), name), { force: true });
      } catch (err) {
        throw failed('delete', err);
      }
    },
    async has(key) {
      if (!FILE_KEY.test(key)) return false;
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (err) {
        if (isMissing(err)) return false;
        throw failed('stat', err);
      }
    },
    async *list(): AsyncGenerator<FileEntry> {
      const shards = await readdir(root).catch((err: unknown) => {
        if (isMissing(err)) return [] as string[];
        throw failed('list', err);
      });
      for (const s of shards.sort()) {
        if (!/^[a-f0-9]{2}$/.test(s)) continue;
        const names = await readdir(join(root, s)).catch((err: unknown) => {
          if (isMissing(err)) return [] as string[];
          throw failed('list', err);
        });
        for (const name of names) {
          const partial = PARTIAL.test(name);
          if (!partial && !FILE_KEY.test(name)) continue;
          // Gone between readdir and stat: another process renamed or removed it.
          const info = await stat(join(root, s, name)).catch(() => null);
          if (!info) continue;
          yield partial ? { key: name, writtenAt: info.mtimeMs, partial: true } : { key: name, writtenAt: info.mtimeMs };
        }
      }
    },
  };
}
