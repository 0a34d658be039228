import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type CourierApp } from '../../server/app';
import type { Config } from '../../server/deps';
import { manualClock } from '../../server/clock';
import { afterAll, afterEach, expect } from 'vitest';
import { openMemoryDatabase, sqliteOf, type Db } from '../../server/db/client';
import { answerDrift } from './answers';
import type { UnitOptions as WriteBatchOptions } from '../../server/db/engine/types';
import { user, company } from '../../server/db/schema/index';
import { diskFileStore, type FileStore } from '../../server/files/index';
import { hashPasswordSync } from '../../server/services/auth/passwords';
import type { Role } from '../../shared/roles';

export const PASSWORD = 'correct-horse-42';
// Cheap hashes keep tests fast; production uses the default cost.
const HASH = hashPasswordSync(PASSWORD, 1024);

export interface TestApp {
  app: CourierApp;
  db: Db;
  clock: ReturnType<typeof manualClock>;
  filesDir: string;
  /** JSON request helper: `call('POST', '/api/package/', token, body)`. */
  call: (method: string, path: string, token?: string | null, body?: unknown, headers?: Record<string, string>) => Promise<Response>;
  json: <T = Record<string, unknown>>(
    method: string,
    path: string,
    token?: string | null,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; body: T; res: Response }>;
  /** Creates a user with PASSWORD and returns a token for it. */
  login: (
    role: Role,
    opts?: { companyId?: number | null; email?: string; name?: string },
  ) => Promise<{ id: number; token: string; email: string }>;
  company: (name?: string, status?: string) => Promise<number>;
  /** Uploads bytes as a proof file (`kind` photo unless `fields` say otherwise); answers its id, throws unless 201. */
  upload: (token: string, bytes: Uint8Array, fields?: Record<string, string>) => Promise<number>;
}

/** A multipart body: strings as fields, bytes as a file named upload.bin. */
export function formOf(fields: Record<string, string | Uint8Array>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, typeof v === 'string' ? v : new File([v as Uint8Array<ArrayBuffer>], 'upload.bin'));
  return f;
}

let seq = 0;

/**
 * After every test, each database a test app still has open must hold exactly the answers its
 * triggers promise (server/db/engine/answerStore.ts): the whole suite doubles as their test.
 */
const opened = new Set<Db>();
// Only under vitest: the benches (bench/retries.ts under tsx) build apps with this helper too.
const underVitest = Boolean(process.env.VITEST);
if (underVitest)
  afterEach(async () => {
    for (const db of opened) {
      const sqlite = sqliteOf(db);
      if (sqlite && !sqlite.open) {
        opened.delete(db);
        continue;
      }
      let drift: number;
      try {
        drift = await answerDrift(db);
      } catch (err) {
        // A test that closed its PostgreSQL pool itself is done with it.
        if (/pool after calling end/i.test(`${String(err)} ${String((err as { cause?: unknown }).cause)}`)) {
          opened.delete(db);
          continue;
        }
        throw err;
      }
      expect(drift, 'parcels whose stored answer is stale').toBe(0);
    }
  });

/** Each test app's files directory, removed once the test file is done (they piled up in /tmp by the ten thousand). */
const filesDirs = new Set<string>();
if (underVitest)
  afterAll(() => {
    for (const dir of filesDirs) rmSync(dir, { recursive: true, force: true });
    filesDirs.clear();
  });

/**
 * `writeBatch` reaches the app's group commit (server/db/writeBatch.ts), e.g. to fail a COMMIT.
 * `config` overrides the app's configuration; PUBLIC_URL defaults to https://courier.test, and TIME_ZONE to
 * UTC, so tests written with UTC days read plainly; tests of local time (issue 31) name their zone.
 * `files` replaces the store in a fresh directory (`filesDir`) with another (an S3 store).
 * `db` replaces the fresh in-memory database (a file database, to see what SQLite writes).
 */
export async function makeApp(
  options: { writeBatch?: WriteBatchOptions; config?: Partial<Config>; files?: FileStore; db?: Db } = {},
): Promise<TestApp> {
  const db = options.db ?? (await openMemoryDatabase());
  opened.add(db);
  const clock = manualClock();
  const filesDir = mkdtempSync(join(tmpdir(), 'courier-files-'));
  filesDirs.add(filesDir);
  const config = { publicUrl: 'https://courier.test', timeZone: 'UTC', ...options.config };
  const app = createApp({ db, files: options.files ?? diskFileStore(filesDir), clock, writeBatch: options.writeBatch, config });
  const call: TestApp['call'] = (method, path, token, body, headers = {}) => {
    const h: Record<string, string> = { ...headers };
    if (token) h.authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body instanceof Uint8Array) {
      // Bytes go as they are: a test that times the server encodes its big bodies before the clock starts.
      payload = body.slice();
      h['content-type'] ??= 'application/json';
    } else if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    return Promise.resolve(app.request(path, { method, headers: h, body: payload }));
  };
  const json: TestApp['json'] = async (method, path, token, body, headers) => {
    const res = await call(method, path, token, body, headers);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, res };
  };
  const companyFn: TestApp['company'] = async (name, status = 'active') => {
    seq += 1;
    const now = clock.now();
    return (
      await db
        .insert(company)
        .values({ name: name ?? `Company ${seq}`, code: `C${seq}`, email: `c${seq}@example.com`, status, created_at: now, updated_at: now })
        .returning()
        .get()
    ).id;
  };
  const login: TestApp['login'] = async (role, opts = {}) => {
    seq += 1;
    const email = opts.email ?? `${role}${seq}@example.com`;
    const now = clock.now();
    const companyId = opts.companyId !== undefined ? opts.companyId : role === 'company' ? await companyFn() : null;
    const id = (
      await db
        .insert(user)
        .values({
          name: opts.name ?? `${role} ${seq}`,
          email,
          role,
          company_id: companyId,
          password_hash: HASH,
          created_at: now,
          updated_at: now,
        })
        .returning()
        .get()
    ).id;
    const res = await json<{ token: string }>('POST', role === 'driver' ? '/api/auth/login/' : '/api/auth/web-login/', null, {
      email,
      password: PASSWORD,
    });
    if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
    return { id, token: res.body.token, email };
  };
  const upload: TestApp['upload'] = async (token, bytes, fields = {}) => {
    const res = await json<{ id: number }>('POST', '/api/file/', token, formOf({ kind: 'photo', ...fields, file: bytes }));
    if (res.status !== 201) throw new Error(`upload failed (${res.status}): ${JSON.stringify(res.body)}`);
    return res.body.id;
  };
  return { app, db, clock, filesDir, call, json, login, company: companyFn, upload };
}
