/**
 * A second process writing into a shared files directory (test/server/file-stores.test.ts):
 * `node --import tsx fileWriter.ts <dir> <count> [size]` stores `count` files of about `size` bytes
 * (64 KiB), each of which carries the sha256 of its own body, and prints their keys as one JSON line.
 */
import { createHash, randomBytes } from 'node:crypto';
import { diskFileStore } from '../../server/files/index';

/** 32 bytes of sha256, then the body: a reader can tell a whole file from a torn one. */
export function selfChecking(size: number): Uint8Array {
  const body = randomBytes(size);
  return new Uint8Array(Buffer.concat([createHash('sha256').update(body).digest(), body]));
}

export function isWhole(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes);
  return b.length >= 32 && createHash('sha256').update(b.subarray(32)).digest().equals(b.subarray(0, 32));
}

if (process.argv[1]?.endsWith('fileWriter.ts')) {
  const [dir, count, size = String(64 * 1024)] = process.argv.slice(2);
  const store = diskFileStore(dir as string);
  const keys: string[] = [];
  for (let i = 0; i < Number(count); i++) keys.push(await store.put(selfChecking(Number(size) + i)));
  process.stdout.write(`${JSON.stringify(keys)}\n`);
}
