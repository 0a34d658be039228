import { mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
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
      if (!KEY.test(key)) return;
      await rm(pathOf(key), { force: true });
    },
    has(key) {
      return KEY.test(key) && existsSync(pathOf(key));
    },
  };
}
