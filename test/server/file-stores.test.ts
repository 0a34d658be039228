import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { storedFile } from '../../server/db/schema/index';
import {
  diskFileStore,
  FILE_KEY,
  FileStoreError,
  openFileStore,
  parseFilesUrl,
  s3FileStore,
  type FileEntry,
  type FileStore,
} from '../../server/files/index';
import { sweepOrphanFiles } from '../../server/services/files/sweep';
import { makeApp, type TestApp } from '../helpers/app';
import { ADMIN, launchServer } from '../helpers/server';
import { isWhole, selfChecking } from '../helpers/fileWriter';
import { MOTO_SERVER, startMotoS3 } from '../helpers/motoS3';
import { startS3Standin, type S3Object, type S3Standin } from '../helpers/s3Standin';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
);

async function all(entries: AsyncIterable<FileEntry>): Promise<FileEntry[]> {
  const out: FileEntry[] = [];
  for await (const e of entries) out.push(e);
  return out;
}

function s3Store(standin: S3Standin, overrides: { secret?: string; prefix?: string } = {}): FileStore {
  return s3FileStore({
    bucket: 'courier',
    prefix: overrides.prefix ?? 'files/',
    region: standin.region,
    endpoint: standin.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: standin.accessKeyId, secretAccessKey: overrides.secret ?? standin.secretAccessKey },
  });
}

interface Subject {
  store: FileStore;
  close(): Promise<void>;
}

/** What every FileStore must do, whatever holds the bytes. */
function fileStoreContract(name: string, open: () => Promise<Subject>): void {
  describe(`${name}: the FileStore contract`, () => {
    let s: Subject;
    beforeEach(async () => {
      s = await open();
    });
    afterEach(() => s.close());

    it('stores bytes whole under a fresh key and reads them back', async () => {
      const every = Uint8Array.from({ length: 256 * 8 }, (_, i) => i % 256);
      const big = selfChecking(3 * 1024 * 1024);
      const a = await s.store.put(every);
      const b = await s.store.put(big);
      expect(a).toMatch(FILE_KEY);
      expect(b).not.toBe(a);
      expect(await s.store.get(a)).toEqual(every);
      expect(isWhole((await s.store.get(b)) as Uint8Array)).toBe(true);
      expect(await s.store.has(a)).toBe(true);
    });

    it('answers null and false for keys it does not hold, and for names that are not keys', async () => {
      const key = await s.store.put(PNG);
      expect(await s.store.get('0b7d8e34-4c3a-4d8e-9a6f-3c2b1a0f9e8d')).toBeNull();
      expect(await s.store.has('0b7d8e34-4c3a-4d8e-9a6f-3c2b1a0f9e8d')).toBe(false);
      for (const bad of ['../etc/passwd', `${key}/../${key}`, `../${key}`, '', 'x', `${key}.tmp`]) {
        expect(await s.store.get(bad)).toBeNull();
        expect(await s.store.has(bad)).toBe(false);
        await s.store.delete(bad);
      }
      expect(await s.store.get(key)).toEqual(PNG);
    });

    it('deletes; deleting twice or a missing key is no error', async () => {
      const keep = await s.store.put(PNG);
      const gone = await s.store.put(Uint8Array.of(1, 2, 3));
      await s.store.delete(gone);
      await s.store.delete(gone);
      expect(await s.store.get(gone)).toBeNull();
      expect(await s.store.has(gone)).toBe(false);
      expect(await s.store.get(keep)).toEqual(PNG);
    });

    it('lists every object once, with the time it was written, across pages', async () => {
      const before = Date.now();
      const keys = new Set<string>();
      for (let i = 0; i < 8; i++) keys.add(await s.store.put(Uint8Array.of(i)));
      const after = Date.now();
      const listed = await all(s.store.list());
      expect(listed.map((e) => e.key).sort()).toEqual([...keys].sort());
      for (const e of listed) {
        expect(e.partial).toBeFalsy();
        // S3 keeps LastModified to the second; disks to the millisecond or better.
        expect(e.writtenAt).toBeGreaterThanOrEqual(before - 1000);
        expect(e.writtenAt).toBeLessThanOrEqual(after + 1000);
      }
    });

    it('keeps 24 concurrent writes apart', async () => {
      const bodies = Array.from({ length: 24 }, () => selfChecking(20_000));
      const keys = await Promise.all(bodies.map((b) => s.store.put(b)));
      expect(new Set(keys).size).toBe(24);
      for (const [i, key] of keys.entries()) expect(await s.store.get(key)).toEqual(bodies[i]);
    }, 120_000); // took 25 s in a CI run on the loaded 2-core machine
  });
}

fileStoreContract('local directory', async () => ({
  store: diskFileStore(mkdtempSync(join(tmpdir(), 'courier-store-'))),
  close: async () => undefined,
}));

fileStoreContract('S3 (loopback stand-in, 3 keys per list page)', async () => {
  const standin = await startS3Standin({ pageSize: 3 });
  return { store: s3Store(standin), close: () => standin.close() };
});

// The same contract against moto's S3 server (an independent implementation), where installed.
if (MOTO_SERVER) {
  fileStoreContract('S3 (moto_server, 3 keys per list page)', async () => {
    const moto = await startMotoS3();
    return {
      store: s3FileStore({
        bucket: moto.bucket,
        prefix: 'files/',
        region: moto.region,
        endpoint: moto.endpoint,
        forcePathStyle: true,
        credentials: moto.credentials,
        listPageSize: 3,
      }),
      close: () => moto.close(),
    };
  });
} else {
  describe.skip('S3 (moto_server): not installed (pip install "moto[server]")', () => {
    it('runs the contract', () => undefined);
  });
}

describe('local directory shared by several processes', () => {
  it('two processes write while a third lists and reads: every file whole, every key distinct', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courier-shared-'));
    const store = diskFileStore(dir);
    const writer = () =>
      new Promise<string[]>((ok, fail) => {
        // 2 MiB files: Node writes them in 512 KiB chunks, so a file written in place would be seen torn.
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', join(ROOT, 'test/helpers/fileWriter.ts'), dir, '40', String(2 * 1024 * 1024)],
          { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let out = '';
        child.stdout.on('data', (b: Buffer) => {
          out += b.toString();
        });
        child.once('exit', (code) => (code === 0 ? ok(JSON.parse(out) as string[]) : fail(new Error(`writer exited ${code}`))));
      });
    const writers = Promise.all([writer(), writer()]);
    let done = false;
    void writers.finally(() => {
      done = true;
    });
    let reads = 0;
    // Reads what the others are writing, as it appears: a key is only ever listed whole.
    while (!done) {
      for (const e of await all(store.list())) {
        if (e.partial) continue;
        const bytes = await store.get(e.key);
        expect(bytes && isWhole(bytes)).toBe(true);
        reads += 1;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    const [a, b] = await writers;
    expect(reads).toBeGreaterThan(0);
    const keys = [...(a as string[]), ...(b as string[])];
    expect(new Set(keys).size).toBe(80);
    const listed = await all(store.list());
    expect(listed.map((e) => e.key).sort()).toEqual([...keys].sort());
    for (const key of keys) expect(isWhole((await store.get(key)) as Uint8Array)).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('a writer SIGKILLed mid-stream leaves whole files and at most a temp file, never a torn file under a key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courier-killed-'));
    const store = diskFileStore(dir);
    // Three writers of 16 MiB files (32 chunks each), each killed at a different moment of a write.
    for (const [round, waitMs] of [
      [1, 0],
      [2, 7],
      [3, 15],
    ] as const) {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'test/helpers/fileWriter.ts'), dir, '100000', String(16 * 1024 * 1024)],
        { cwd: ROOT, stdio: 'ignore' },
      );
      const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
      for (let i = 0; i < 600 && (await all(store.list())).filter((e) => !e.partial).length < 2 * round; i++)
        await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, waitMs));
      child.kill('SIGKILL');
      await exited;
    }
    const entries = await all(store.list());
    const whole = entries.filter((e) => !e.partial);
    expect(whole.length).toBeGreaterThanOrEqual(6);
    for (const e of whole) expect(isWhole((await store.get(e.key)) as Uint8Array)).toBe(true);
    expect(entries.filter((e) => e.partial).length).toBeLessThanOrEqual(3);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("the sweep leaves another process's write in progress alone, and removes a crash's leftover after an hour", async () => {
    const t = await makeApp({ config: { orphanFileGraceMs: 0 } });
    t.clock.set(Date.now() + 1000);
    const driver = await t.login('driver');
    const form = new FormData();
    form.append('file', new File([PNG], 'p.png'));
    form.append('kind', 'photo');
    expect((await t.call('POST', '/api/file/', driver.token, form)).status).toBe(201);
    // Another process is writing this one right now (its temp name: key, pid, random).
    mkdirSync(join(t.filesDir, 'ab'), { recursive: true });
    const inFlight = join(t.filesDir, 'ab', 'ab0c2d1e-0000-4000-8000-000000000001.4242-0a1b2c3d4e5f.tmp');
    writeFileSync(inFlight, 'half a photo');
    // An older version's leftover name is recognised too.
    const legacy = join(t.filesDir, 'ab', 'ab0c2d1e-0000-4000-8000-000000000002.tmp');
    writeFileSync(legacy, 'half');
    const named = (await t.db.select().from(storedFile).get())?.key as string;
    const orphan = await t.app.deps.files.put(PNG);
    t.clock.set(Date.now() + 1000);

    expect(await sweepOrphanFiles(t.app.deps)).toBe(1);
    expect(await t.app.deps.files.has(orphan)).toBe(false);
    expect(readdirSync(join(t.filesDir, 'ab')).sort()).toEqual([
      'ab0c2d1e-0000-4000-8000-000000000001.4242-0a1b2c3d4e5f.tmp',
      'ab0c2d1e-0000-4000-8000-000000000002.tmp',
    ]);

    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(inFlight, twoHoursAgo, twoHoursAgo);
    utimesSync(legacy, twoHoursAgo, twoHoursAgo);
    expect(await sweepOrphanFiles(t.app.deps)).toBe(2);
    expect(readdirSync(join(t.filesDir, 'ab'))).toEqual([]);
    expect(await t.app.deps.files.has(named)).toBe(true);
  });

  it('a directory that cannot be written answers 503 and records nothing', async () => {
    const base = mkdtempSync(join(tmpdir(), 'courier-broken-'));
    writeFileSync(join(base, 'files'), 'a file where the directory should be');
    const t = await makeApp({ files: diskFileStore(join(base, 'files')) });
    const driver = await t.login('driver');
    const form = new FormData();
    form.append('file', new File([PNG], 'p.png'));
    form.append('kind', 'photo');
    const res = await t.json<{ code: string }>('POST', '/api/file/', driver.token, form);
    expect([res.status, res.body.code, res.res.headers.get('retry-after')]).toEqual([503, 'service_unavailable', '30']);
    expect(await t.db.select().from(storedFile).all()).toEqual([]);
  });
});

describe('S3 store: failures answered by the bucket', () => {
  let standin: S3Standin;
  let store: FileStore;
  beforeEach(async () => {
    standin = await startS3Standin({ pageSize: 3 });
    store = s3Store(standin);
  });
  afterEach(() => standin.close());
  const objects = () => [...(standin.buckets.get('courier')?.keys() ?? [])];
  const count = (method: string) => standin.requests.filter((r) => r.method === method).length;

  it('a 503 (SlowDown) is retried and the object stored once; objects go under the prefix', async () => {
    standin.failNext(1, 503, 'PUT');
    const key = await store.put(PNG);
    expect(count('PUT')).toBe(2);
    expect(objects()).toEqual([`files/${key.slice(0, 2)}/${key}`]);
    expect(await store.get(key)).toEqual(PNG);
  });

  it('a bucket answering 500 to every try: put throws a FileStoreError and no key names anything', async () => {
    standin.failNext(3, 500, 'PUT');
    await expect(store.put(PNG)).rejects.toBeInstanceOf(FileStoreError);
    expect(count('PUT')).toBe(3);
    expect(objects()).toEqual([]);
  });

  it('reads: a missing object is null, a failing bucket is an error (never null), and so are damaged or cut bodies', async () => {
    const body = selfChecking(200_000);
    const key = await store.put(body);
    standin.failNext(3, 500, 'GET');
    await expect(store.get(key)).rejects.toBeInstanceOf(FileStoreError);
    standin.failNext(3, 503, 'HEAD');
    await expect(store.has(key)).rejects.toBeInstanceOf(FileStoreError);
    // One byte flipped on the way: the CRC32 the bucket stored does not match.
    standin.corruptNextGet();
    await expect(store.get(key)).rejects.toBeInstanceOf(FileStoreError);
    standin.cutNextGet();
    await expect(store.get(key)).rejects.toBeInstanceOf(FileStoreError);
    // Nothing was damaged in the bucket: the next read is whole.
    expect(await store.get(key)).toEqual(body);
    expect(await store.get('0b7d8e34-4c3a-4d8e-9a6f-3c2b1a0f9e8d')).toBeNull();
    expect(await store.has('0b7d8e34-4c3a-4d8e-9a6f-3c2b1a0f9e8d')).toBe(false);
  });

  it('a bucket that stops answering fails the call after the timeout instead of holding it', async () => {
    const key = await store.put(PNG);
    const impatient = s3FileStore({
      bucket: 'courier',
      prefix: 'files/',
      region: standin.region,
      endpoint: standin.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: standin.accessKeyId, secretAccessKey: standin.secretAccessKey },
      timeoutMs: 300,
    });
    standin.stallNext(3);
    await expect(impatient.get(key)).rejects.toBeInstanceOf(FileStoreError);
    expect(standin.requests.filter((r) => r.status === 0)).toHaveLength(3);
    expect(await impatient.get(key)).toEqual(PNG);
  });

  it('a listing whose next page fails fails, never comes back short', async () => {
    for (let i = 0; i < 7; i++) await store.put(Uint8Array.of(i));
    const seen: string[] = [];
    const listing = (async () => {
      for await (const e of store.list()) {
        seen.push(e.key);
        if (seen.length === 1) standin.failNext(3, 500, 'GET');
      }
    })();
    await expect(listing).rejects.toBeInstanceOf(FileStoreError);
    expect(seen).toHaveLength(3);
    expect(standin.requests.filter((r) => r.query.get('list-type') === '2' && r.query.has('continuation-token'))).toHaveLength(3);
  });

  it('wrong credentials: every call is refused (403) and surfaces as an error, never as "no such file"', async () => {
    const key = await store.put(PNG);
    const wrong = s3Store(standin, { secret: 'not-the-secret' });
    await expect(wrong.put(PNG)).rejects.toBeInstanceOf(FileStoreError);
    await expect(wrong.get(key)).rejects.toBeInstanceOf(FileStoreError);
    await expect(wrong.has(key)).rejects.toBeInstanceOf(FileStoreError);
    expect(standin.requests.filter((r) => r.status === 403).length).toBeGreaterThanOrEqual(3);
    expect(objects()).toHaveLength(1);
  });

  it('lists only what it wrote: other objects in the bucket or under the prefix are never offered to the sweep', async () => {
    const key = await store.put(PNG);
    const bucket = standin.buckets.get('courier') as Map<string, S3Object>;
    const foreign = { bytes: Buffer.from('x'), lastModified: new Date(0), etag: 'x', crc32: null };
    for (const name of [
      'files/README',
      `files/${key}`,
      `files/${key.slice(0, 2)}/${key}/copy`,
      `files/zz/${key}`,
      `other/${key.slice(0, 2)}/${key}`,
    ])
      bucket.set(name, foreign);
    expect((await all(store.list())).map((e) => e.key)).toEqual([key]);
  });

  it('FILES_URL selects the bucket, prefix, region and endpoint; credentials come from the AWS_* variables', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', standin.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', standin.secretAccessKey);
    try {
      const fromEnv = openFileStore({
        FILES_URL: `s3://courier/prod/courier?region=${standin.region}&endpoint=${encodeURIComponent(standin.endpoint)}`,
        FILES_DIR: '/nonexistent',
      });
      expect(fromEnv.location).toBe('s3://courier/prod/courier/');
      const key = await fromEnv.put(PNG);
      expect(objects()).toEqual([`prod/courier/${key.slice(0, 2)}/${key}`]);
      expect(await fromEnv.get(key)).toEqual(PNG);
    } finally {
      vi.unstubAllEnvs();
    }
    const dir = mkdtempSync(join(tmpdir(), 'courier-dir-'));
    expect(openFileStore({ FILES_DIR: dir }).location).toBe(dir);
    expect(openFileStore({ FILES_URL: '', FILES_DIR: dir }).location).toBe(dir);
  });

  it('the sweep removes an orphaned object once its LastModified is past the grace period, and keeps named ones', async () => {
    const t = await makeApp({ files: store, config: { orphanFileGraceMs: 24 * 3600_000 } });
    t.clock.set(Date.now());
    const driver = await t.login('driver');
    const form = new FormData();
    form.append('file', new File([PNG], 'p.png'));
    form.append('kind', 'photo');
    expect((await t.call('POST', '/api/file/', driver.token, form)).status).toBe(201);
    const orphan = await store.put(PNG);
    const named = (await t.db.select().from(storedFile).get())?.key as string;
    expect(await sweepOrphanFiles(t.app.deps)).toBe(0);
    for (const key of [orphan, named]) standin.age('courier', `files/${key.slice(0, 2)}/${key}`, new Date(Date.now() - 2 * 24 * 3600_000));
    expect(await sweepOrphanFiles(t.app.deps)).toBe(1);
    expect(objects()).toEqual([`files/${named.slice(0, 2)}/${named}`]);
  });
});

describe("S3 store behind the app: a driver's photo", () => {
  let standin: S3Standin;
  let t: TestApp;
  beforeEach(async () => {
    standin = await startS3Standin();
    t = await makeApp({ files: s3Store(standin) });
  });
  afterEach(() => standin.close());
  const upload = (token: string) => {
    const form = new FormData();
    form.append('file', new File([PNG], 'p.png'));
    form.append('kind', 'photo');
    return t.json<{ id: number; code: string }>('POST', '/api/file/', token, form);
  };

  it('is stored in the bucket and served back; a bucket down answers 503 with Retry-After and records nothing', async () => {
    const driver = await t.login('driver');
    const up = await upload(driver.token);
    expect(up.status).toBe(201);
    const row = await t.db.select().from(storedFile).where(eq(storedFile.id, up.body.id)).get();
    expect(standin.buckets.get('courier')?.get(`files/${row?.key.slice(0, 2)}/${row?.key}`)?.bytes).toEqual(Buffer.from(PNG));
    const back = await t.call('GET', `/api/file/${up.body.id}/`, driver.token);
    expect(back.status).toBe(200);
    expect(new Uint8Array(await back.arrayBuffer())).toEqual(PNG);

    standin.failNext(3, 503, 'PUT');
    const down = await upload(driver.token);
    expect([down.status, down.body.code, down.res.headers.get('retry-after')]).toEqual([503, 'service_unavailable', '30']);
    expect(await t.db.select().from(storedFile).all()).toHaveLength(1);

    standin.failNext(3, 500, 'GET');
    const read = await t.json<{ code: string }>('GET', `/api/file/${up.body.id}/`, driver.token);
    expect([read.status, read.body.code]).toEqual([503, 'service_unavailable']);
    // Back up: the same upload works.
    expect((await upload(driver.token)).status).toBe(201);
  });

  it('a bucket refusing DELETE does not fail a committed removal: the bytes wait for the sweep', async () => {
    const driver = await t.login('driver');
    const form = new FormData();
    form.append('file', new File([PNG], 'me.png'));
    expect((await t.json('POST', '/api/profile/image/', driver.token, form)).status).toBe(200);
    const [name] = [...(standin.buckets.get('courier')?.keys() ?? [])];
    standin.failNext(3, 503, 'DELETE');
    expect((await t.json('DELETE', '/api/profile/image/', driver.token)).status).toBe(200);
    expect((await t.json('GET', '/api/profile/image/', driver.token)).status).toBe(404);
    expect(await t.db.select().from(storedFile).all()).toEqual([]);
    expect([...(standin.buckets.get('courier')?.keys() ?? [])]).toEqual([name]);
    standin.age('courier', name as string, new Date(Date.now() - 2 * 24 * 3600_000));
    t.clock.set(Date.now());
    expect(await sweepOrphanFiles(t.app.deps)).toBe(1);
    expect(standin.buckets.get('courier')?.size).toBe(0);
  });
});

describe('FILES_URL on the real server (server/main.ts)', () => {
  it('puts uploads in the bucket and serves them from there; a malformed FILES_URL stops the start', async () => {
    const standin = await startS3Standin();
    const dir = mkdtempSync(join(tmpdir(), 'courier-s3-server-'));
    const server = await launchServer(dir, undefined, {
      FILES_URL: `s3://courier/spawned?region=${standin.region}&endpoint=${encodeURIComponent(standin.endpoint)}`,
      AWS_ACCESS_KEY_ID: standin.accessKeyId,
      AWS_SECRET_ACCESS_KEY: standin.secretAccessKey,
    });
    try {
      expect(server.output()).toContain('files s3://courier/spawned/');
      const login = await fetch(`${server.baseUrl}auth/web-login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      const { token } = (await login.json()) as { token: string };
      const form = new FormData();
      form.append('file', new File([PNG], 'p.png'));
      form.append('kind', 'photo');
      const up = await fetch(`${server.baseUrl}file/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      expect(up.status).toBe(201);
      const { id } = (await up.json()) as { id: number };
      const names = [...(standin.buckets.get('courier')?.keys() ?? [])];
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/^spawned\/[a-f0-9]{2}\/[a-f0-9-]{36}$/);
      expect(readdirSync(dir)).not.toContain('files');
      const back = await fetch(`${server.baseUrl}file/${id}/`, { headers: { authorization: `Bearer ${token}` } });
      expect(new Uint8Array(await back.arrayBuffer())).toEqual(PNG);
    } finally {
      server.child.kill('SIGTERM');
      await server.exit;
      await standin.close();
    }
    await expect(launchServer(dir, undefined, { FILES_URL: 's3://key:secret@courier/x' })).rejects.toThrow(
      /FILES_URL must not hold credentials/,
    );
  }, 120_000);
});

describe('FILES_URL', () => {
  it('reads bucket, prefix, region, endpoint and addressing; refuses what it cannot use', () => {
    expect(parseFilesUrl('s3://my-bucket')).toEqual({ bucket: 'my-bucket', prefix: '', region: 'us-east-1', forcePathStyle: false });
    expect(parseFilesUrl('s3://my-bucket/courier/files/?region=eu-west-1')).toEqual({
      bucket: 'my-bucket',
      prefix: 'courier/files/',
      region: 'eu-west-1',
      forcePathStyle: false,
    });
    expect(parseFilesUrl('s3://bk1/x', { AWS_REGION: 'ap-southeast-2' }).region).toBe('ap-southeast-2');
    expect(parseFilesUrl('s3://bk1/x?endpoint=https://minio.internal:9000')).toEqual({
      bucket: 'bk1',
      prefix: 'x/',
      region: 'us-east-1',
      endpoint: 'https://minio.internal:9000',
      forcePathStyle: true,
    });
    expect(parseFilesUrl('s3://bk1?endpoint=https://s3.example.com&path_style=0').forcePathStyle).toBe(false);
    for (const bad of ['https://b1/x', 's3://key:secret@b1/x', 's3://B_1', 's3://bk1?endpoint=ftp://x', 's3://bk1?regoin=x', 'not a url']) {
      expect(() => parseFilesUrl(bad), bad).toThrow(/FILES_URL/);
    }
  });
});
