import { createHmac } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { company, pkg } from '../../server/db/schema/index';
import type { TestApp } from '../helpers/app';

/** Signs as a company's system would, written from the documented scheme rather than the server's code. */
export function signed(secret: string, body: string, timestamp: number, companyRef: string): Record<string, string> {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return {
    'content-type': 'application/json',
    'x-courier-company': companyRef,
    'x-courier-timestamp': String(timestamp),
    'x-courier-signature': `sha256=${mac}`,
  };
}

export async function companyWithKey(t: TestApp, name: string) {
  const id = await t.company(name);
  const login = await t.login('company', { companyId: id });
  const key = await t.json<{ secret_key: string }>('POST', '/api/webhook-secret-key/generate-key/', login.token, {});
  if (key.status !== 201) throw new Error(JSON.stringify(key.body));
  const code = (await t.db.select({ code: company.code }).from(company).where(eq(company.id, id)).get())?.code ?? '';
  return { id, login, secret: key.body.secret_key, code };
}

export const packageCount = async (t: TestApp) => (await t.db.select({ n: count() }).from(pkg).get())?.n ?? 0;

/** Sends a signed webhook call; `at` is the signing time in ms (default: the server's clock). */
export function webhookCall(
  t: TestApp,
  method: 'POST' | 'PATCH',
  co: { secret: string; code: string },
  payload: unknown,
  at = t.clock.now(),
) {
  const body = JSON.stringify(payload);
  return t.json<Record<string, unknown> & { package: Record<string, unknown> }>(
    method,
    '/api/pickup-package/webhook/',
    null,
    body,
    signed(co.secret, body, Math.floor(at / 1000), co.code),
  );
}
