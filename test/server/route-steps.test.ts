/**
 * The steps defineRoute composes (server/http/route/), each on its own, on a real app's database:
 * who calls, what was sent, the Idempotency-Key's stored answers, the unit of work, the request's end.
 */
import { Hono, type Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../server/errors';
import type { AppEnv } from '../../server/http/env';
import { idempotencyOf } from '../../server/http/idempotency';
import { callerOf, checkAccess } from '../../server/http/route/caller';
import { keyedRequest, refusalKept, storedReplay } from '../../server/http/route/idempotency';
import { parseWith, withUser } from '../../server/http/route/input';
import { settlement } from '../../server/http/route/settle';
import { runUnit } from '../../server/http/route/unit';
import { makeApp, type TestApp } from '../helpers/app';

/** One route answering with `step`, on the test app's deps, a caller of its write batch as server/app.ts makes each request. */
function stepApp(t: TestApp, step: (c: Context<AppEnv>) => Promise<Response>) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('deps', t.app.deps);
    c.set('requestId', 'step');
    await t.app.deps.writes.caller(next);
  });
  app.all('/step', step);
  return (headers: Record<string, string> = {}, method = 'POST') => app.request('/step', { method, headers });
}

const statusOf = async (p: Promise<unknown>) =>
  p.then(
    () => 0,
    (err: unknown) => (err instanceof ApiError ? err.status : -1),
  );

describe('route step: caller', () => {
  it('a public route takes a bad token as no caller; any other answers 401; access is checked', async () => {
    const t = await makeApp();
    const driver = await t.login('driver');
    const seen: (number | undefined | string)[] = [];
    const call = stepApp(t, async (c) => {
      const access = c.req.header('x-access') as 'public' | 'authenticated';
      try {
        seen.push((await callerOf(c, access))?.id);
      } catch (err) {
        seen.push(err instanceof ApiError ? err.status : 'other');
      }
      return c.body(null, 204);
    });
    await call({ 'x-access': 'public', authorization: 'Bearer short' });
    await call({ 'x-access': 'authenticated', authorization: 'Bearer short' });
    await call({ 'x-access': 'authenticated' });
    await call({ 'x-access': 'authenticated', authorization: `Bearer ${driver.token}` });
    expect(seen).toEqual([undefined, 401, 401, driver.id]);

    const user = await callerOfToken(t, driver.token);
    expect(() => checkAccess(user, { roles: ['admin'] })).toThrow(/Only admin may do this/);
    expect(() => checkAccess(user, 'employee.manage')).toThrow(/"employee.manage" permission/);
    expect(() => checkAccess(user, { roles: ['driver'] })).not.toThrow();
    expect(() => checkAccess(undefined, 'public')).not.toThrow();
  });
});

async function callerOfToken(t: TestApp, token: string) {
  let user: Awaited<ReturnType<typeof callerOf>>;
  await stepApp(t, async (c) => {
    user = await callerOf(c, 'authenticated');
    return c.body(null, 204);
  })({ authorization: `Bearer ${token}` });
  return user;
}

describe('route step: input', () => {
  it('parses with the schema, names the part that failed, and asks for a session only when `user` is read', () => {
    expect(parseWith(undefined, { any: 1 }, 'body')).toBeUndefined();
    expect(parseWith(z.object({ n: z.coerce.number() }), { n: '3' }, 'query')).toEqual({ n: 3 });
    let refused: unknown;
    try {
      parseWith(z.object({ n: z.number() }), { n: 'x' }, 'body');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(400);
    expect(JSON.stringify((refused as ApiError).toBody())).toContain('body');

    const anonymous = withUser({ maybeUser: undefined, query: 1 });
    expect(anonymous.query).toBe(1);
    expect(() => anonymous.user).toThrow(ApiError);
    expect(Object.keys(anonymous)).toContain('user');
  });
});

describe('route step: idempotency', () => {
  it("keeps a 4xx refusal as the key's answer, replayed; a failure that may pass next time is not kept", async () => {
    const t = await makeApp();
    const driver = await t.login('driver');
    const call = stepApp(t, async (c) => {
      const keyed = keyedRequest(c, idempotencyOf(c), driver.id, new TextEncoder().encode('{}'));
      const stored = await storedReplay(keyed);
      if (stored) return stored;
      const refusal = c.req.header('x-refuse') === 'conflict' ? new ApiError(409, 'conflict', 'Already done') : new Error('disk full');
      const status = await statusOf(refusalKept(keyed, () => Promise.reject(refusal)));
      return c.json({ thrown: status });
    });
    const refused = await call({ 'idempotency-key': 'step-key-409', 'x-refuse': 'conflict' });
    expect(await refused.json()).toEqual({ thrown: 409 });
    const again = await call({ 'idempotency-key': 'step-key-409' });
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { code: string }).code).toBe('conflict');

    expect(await (await call({ 'idempotency-key': 'step-key-500' })).json()).toEqual({ thrown: -1 });
    const retried = await call({ 'idempotency-key': 'step-key-500' });
    expect(retried.headers.get('idempotent-replayed')).toBeNull();

    // Without a key nothing is looked up or kept.
    expect(await (await call({ 'x-refuse': 'conflict' })).json()).toEqual({ thrown: 409 });
  });
});

describe('route step: unit of work', () => {
  it("stores the handler's answer with its effect; a twin gets it; a refusal comes back as the refusal", async () => {
    const t = await makeApp();
    const driver = await t.login('driver');
    let runs = 0;
    const call = stepApp(t, async (c) => {
      const keyed = keyedRequest(c, idempotencyOf(c), driver.id, undefined);
      const stored = await storedReplay(keyed);
      if (stored) return stored;
      const refuse = c.req.header('x-refuse') === 'yes';
      try {
        return await runUnit(
          keyed,
          () => {
            runs += 1;
            if (refuse) throw new ApiError(422, 'validation_error', 'No');
            return { run: runs };
          },
          { status: 201, small: true, device: null, maybeUser: undefined },
        );
      } catch (err) {
        return c.json({ thrown: err instanceof ApiError ? err.status : -1 });
      }
    });
    const first = await call({ 'idempotency-key': 'unit-key-ok' });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ run: 1 });
    const twin = await call({ 'idempotency-key': 'unit-key-ok' });
    expect([twin.status, twin.headers.get('idempotent-replayed'), await twin.json()]).toEqual([201, 'true', { run: 1 }]);
    expect(runs).toBe(1);

    expect(await (await call({ 'idempotency-key': 'unit-key-no', 'x-refuse': 'yes' })).json()).toEqual({ thrown: 422 });
    const replayed = await call({ 'idempotency-key': 'unit-key-no', 'x-refuse': 'yes' });
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([422, 'true']);
    expect(runs).toBe(2);
  });
});

describe('route step: settle', () => {
  it("runs the route's settle after the answer, whether it succeeded or failed, and answers errors in the one shape", async () => {
    const t = await makeApp();
    const settled: string[] = [];
    const call = stepApp(t, async (c) => {
      const end = settlement(c);
      end.after(async () => {
        settled.push(c.req.header('x-outcome') ?? '');
      });
      if (c.req.header('x-outcome') === 'ok') return end.send(c.json({ ok: true }));
      return end.fail(new ApiError(404, 'not_found', 'Nothing here'));
    });
    expect((await call({ 'x-outcome': 'ok' })).status).toBe(200);
    const failed = await call({ 'x-outcome': 'fail' });
    expect(failed.status).toBe(404);
    expect(((await failed.json()) as { code: string }).code).toBe('not_found');
    expect(settled).toEqual(['ok', 'fail']);
  });
});
