/**
 * Every answer carries the security headers, whichever way it was made: an API answer made whole
 * (http/answerHeaders.ts), an error, a compressed answer, the API document. The headers written
 * out once must be exactly what Hono's secureHeaders middleware sets for the same policy.
 */
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { describe, expect, it } from 'vitest';
import { SECURE_HEADERS_OPTIONS, SECURITY_HEADERS } from '../../server/http/answerHeaders';
import { makeApp } from '../helpers/app';

describe('answer headers', () => {
  it('the written-out security headers are what Hono sets for the policy', async () => {
    const app = new Hono();
    app.use('*', secureHeaders(SECURE_HEADERS_OPTIONS));
    app.get('/', (c) => c.body(null, 204));
    const res = await app.request('/');
    expect(Object.fromEntries(res.headers)).toEqual(SECURITY_HEADERS);
  });

  it('API answers, errors, compressed answers and the API document all carry them, a request id and Vary where JSON', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    // Enough people that their list is worth compressing.
    for (let i = 0; i < 12; i++) await t.login('driver');
    const answers = {
      ok: await t.call('GET', '/api/profile/', admin.token, undefined, { 'x-request-id': 'req-12345678' }),
      created: await t.call('POST', '/api/group-permission/', admin.token, { name: 'Viewers', permissions: ['company.view'] }),
      refused: await t.call('GET', '/api/profile/', 'x'.repeat(40)),
      missing: await t.call('GET', '/api/no-such-thing/', admin.token),
      compressed: await t.call('GET', '/api/employee/?page_size=100', admin.token, undefined, { 'accept-encoding': 'gzip' }),
      document: await t.call('GET', '/api/openapi.json'),
    };
    expect(answers.compressed.headers.get('content-encoding')).toBe('gzip');
    expect(answers.ok.headers.get('x-request-id')).toBe('req-12345678');
    for (const [name, res] of Object.entries(answers)) {
      for (const [header, value] of Object.entries(SECURITY_HEADERS))
        expect(`${name} ${header}: ${res.headers.get(header)}`).toBe(`${name} ${header}: ${value}`);
      expect(res.headers.get('x-request-id'), name).toMatch(/^[\w-]{8,}$/);
      expect(res.headers.get('vary'), name).toContain('Accept-Encoding');
      expect(res.headers.get('content-type'), name).toContain('application/json');
    }
    expect(answers.ok.status).toBe(200);
    expect(answers.created.status).toBe(201);
    expect(answers.refused.status).toBe(401);
    expect(answers.missing.status).toBe(404);
  });
});
