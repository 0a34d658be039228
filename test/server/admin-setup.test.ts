import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ADMIN, launchServer } from '../helpers/server';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

async function login(baseUrl: string, email: string, password: string): Promise<number> {
  const res = await fetch(new URL('auth/web-login/', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  await res.arrayBuffer();
  return res.status;
}

async function admin(dir: string, env: Record<string, string>, args: string[] = []): Promise<{ code: number; out: string }> {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/admin.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_PATH: join(dir, 'courier.db'), ADMIN_EMAIL: '', ADMIN_PASSWORD: '', ...env },
    });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('first admin and npm run admin (issue 18, setup trap)', () => {
  it("the README's first command passes ADMIN_* to npm start when pasted as printed", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const line = /```sh\n([^\n]+)/.exec(readme)?.[1]?.replace(/#.*$/, '').trim() ?? '';
    expect(line).toMatch(/npm start/);
    // `npm` stands in as a shell function printing what each step sees.
    const { stdout } = await run(
      'bash',
      ['-c', `npm() { echo "$1 email=\${ADMIN_EMAIL:-unset} password=\${ADMIN_PASSWORD:+set}"; }\n${line}`],
      { env: { PATH: process.env.PATH ?? '' } },
    );
    expect(stdout).toMatch(/^start email=admin@example\.com password=set$/m);
  });

  it('says when ADMIN_* is ignored, and npm run admin creates or resets an admin while the server runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courier-admin-'));
    const first = await launchServer(dir);
    expect(first.output()).toContain(`created super admin ${ADMIN.email}`);
    first.child.kill('SIGTERM');
    await first.exit;

    const second = await launchServer(dir, undefined, { ADMIN_EMAIL: 'boss@example.test', ADMIN_PASSWORD: 'boss-password-1' });
    try {
      expect(second.output()).toMatch(/ADMIN_EMAIL\/ADMIN_PASSWORD ignored: the database already has 1 user\(s\)/);
      expect(second.output()).toContain('ADMIN_EMAIL=boss@example.test ADMIN_PASSWORD=<new password> npm run admin');
      expect(await login(second.baseUrl, 'boss@example.test', 'boss-password-1')).toBe(401);

      const created = await admin(dir, { ADMIN_EMAIL: 'Boss@Example.test', ADMIN_PASSWORD: 'boss-password-1' });
      expect(created).toMatchObject({ code: 0 });
      expect(created.out).toContain('created super admin boss@example.test');
      expect(await login(second.baseUrl, 'boss@example.test', 'boss-password-1')).toBe(200);

      const reset = await admin(dir, {}, [ADMIN.email, 'a-new-password-9']);
      expect(reset.code).toBe(0);
      expect(reset.out).toContain(`reset the password of admin ${ADMIN.email}`);
      expect(await login(second.baseUrl, ADMIN.email, ADMIN.password)).toBe(401);
      expect(await login(second.baseUrl, ADMIN.email, 'a-new-password-9')).toBe(200);

      expect((await admin(dir, {})).code).toBe(2);
      const short = await admin(dir, {}, ['x@example.test', 'short']);
      expect(short.code).toBe(1);
      expect(short.out).toContain('at least 8 characters');
    } finally {
      second.child.kill('SIGTERM');
      await second.exit;
    }
  }, 120_000);
});
