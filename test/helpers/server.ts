import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const ADMIN = { email: 'admin@spawned.test', password: 'spawned-admin-42' };

/** The real server (server/main.ts) in its own process, so a test can SIGKILL it and start it again on the same files. */
export interface SpawnedServer {
  port: number;
  /** `http://127.0.0.1:PORT/api/` */
  baseUrl: string;
  dir: string;
  databasePath: string;
  /** SIGKILL: no shutdown handler runs; whatever SQLite committed is all that survives. */
  kill(): Promise<void>;
  /** A fresh process on the same port, database and files. */
  restart(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => ok(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => child.once('exit', () => ok()));
}

/** One server/main.ts process on `dir`'s database and files, resolved once it listens. */
export interface LaunchedServer {
  child: ChildProcess;
  port: number;
  /** `http://127.0.0.1:PORT/api/` */
  baseUrl: string;
  exit: Promise<number | null>;
  /** Everything it printed so far. */
  output: () => string;
}

export async function launchServer(dir: string, port?: number, env: Record<string, string> = {}): Promise<LaunchedServer> {
  const p = port ?? (await freePort());
  // node itself (not npx), so the signal reaches the server and not a wrapper.
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(p),
      HOST: '127.0.0.1',
      DATABASE_PATH: join(dir, 'courier.db'),
      FILES_DIR: join(dir, 'files'),
      STATIC_DIR: join(dir, 'no-pwa'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_REQUESTS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr?.on('data', (b: Buffer) => {
    out += b.toString();
  });
  const exit = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`server did not start:\n${out}`));
    }, 90_000);
    const check = () => {
      if (out.includes('listening on')) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stdout?.on('data', check);
    void exit.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited ${code} before listening:\n${out}`));
    });
  });
  return { child, port: p, baseUrl: `http://127.0.0.1:${p}/api/`, exit, output: () => out };
}

export async function spawnServer(): Promise<SpawnedServer> {
  const dir = mkdtempSync(join(tmpdir(), 'courier-server-'));
  const port = await freePort();
  let child = (await launchServer(dir, port)).child;
  return {
    port,
    dir,
    databasePath: join(dir, 'courier.db'),
    baseUrl: `http://127.0.0.1:${port}/api/`,
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async restart() {
      if (child.exitCode === null && child.signalCode === null) throw new Error('kill or stop the server first');
      child = (await launchServer(dir, port)).child;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

async function api<T>(baseUrl: string, method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(new URL(path, baseUrl), {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export interface SeededDriver {
  adminToken: string;
  driver: { id: number; email: string; password: string };
  ids: number[];
  hawbs: string[];
}

/** Through the API as an admin: a driver with a login and `n` parcels assigned to them. */
export async function seedOverHttp(baseUrl: string, n: number, prefix: string): Promise<SeededDriver> {
  const { token: adminToken } = await api<{ token: string }>(baseUrl, 'POST', 'auth/web-login/', null, ADMIN);
  const driver = { email: `${prefix.toLowerCase()}-driver@spawned.test`, password: 'driver-password-42', id: 0 };
  driver.id = (
    await api<{ id: number }>(baseUrl, 'POST', 'employee/', adminToken, {
      name: `Driver ${prefix}`,
      email: driver.email,
      role: 'driver',
      password: driver.password,
    })
  ).id;
  const hawbs = Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);
  const ids: number[] = [];
  for (const hawb of hawbs)
    ids.push((await api<{ id: number }>(baseUrl, 'POST', 'package/', adminToken, { hawb, customer_name: `Receiver ${hawb}` })).id);
  await api(baseUrl, 'POST', 'assign-package/assign-driver/', adminToken, { driver: driver.id, packages: ids });
  return { adminToken, driver, ids, hawbs };
}

export { api as callApi };
