import { mkdir, readdir, readFile, rm, rename, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';

/**
 * Stored files are named by the server (a random key), never by the user, so no user input ever
 * becomes a path.
 */
export interface FileStore {
  put(bytes: Uint8Array): Promise<string>;
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
  has(key: string): boolean;
  /** Every stored key with the time its bytes were written (for the orphan sweep). */
  list(): Promise<{ key: string; writtenAt: number }[]>;
}

const KEY = /^[a-f0-9-]{36}$/;

export function diskFileStore(dir: string): FileStore {
  const root = resolve(dir);
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error('invalid file key');
    return join(root, key.slice(0, 2), key);
  };
  return {
    async put(bytes) {
      const key = randomUUID();
      const path = pathOf(key);
      await mkdir(join(root, key.slice(0, 2)), { recursive: true });
      // Write then rename so a crash never leaves a half file under a key the database names.
      await writeFile(`${path}.tmp`, bytes);
      await rename(`${path}.tmp`, path);
      return key;
    },
    async get(key) {
      if (!KEY.test(key)) return null;
      try { return new Uint8Array(await readFile(pathOf(key))); } catch { return null; }
    },
    async delete(key) {
      const tmp = key.endsWith('.tmp');
      const bare = tmp ? key.slice(0, -4) : key;
      if (!KEY.test(bare)) return;
      await rm(tmp ? `${pathOf(bare)}.tmp` : pathOf(bare), { force: true });
    },
    has(key) {
      return KEY.test(key) && existsSync(pathOf(key));
    },
    async list() {
      const out: { key: string; writtenAt: number }[] = [];
      const dirs = await readdir(root).catch(() => [] as string[]);
      for (const dir of dirs) {
        if (!/^[a-f0-9]{2}$/.test(dir)) continue;
        for (const name of await readdir(join(root, dir)).catch(() => [] as string[])) {
          // Half-written `.tmp` files count too (a crash between write and rename): named by their key.
          const key = name.replace(/\.tmp$/, '');
          if (!KEY.test(key)) continue;
          const info = await stat(join(root, dir, name)).catch(() => null);
          if (info) out.push({ key: name.endsWith('.tmp') ? `${key}.tmp` : key, writtenAt: info.mtimeMs });
        }
      }
      return out;
    },
  };
}
