import { Client } from 'undici';
import { makeApp } from './test/helpers/app';
import { listen } from './server/http/listen';
const t = makeApp();
const admin = await t.login('admin');
const server = listen(t.app.fetch, { port: 0, hostname: '127.0.0.1' });
await new Promise((r) => server.once('listening', r));
const port = (server.address() as any).port;
const client = new Client(`http://127.0.0.1:${port}`);
const cases = [['/api/auth/logout/', 1000, 'application/json'], ['/api/auth/logout/', 300 * 1024, 'application/json'], ['/api/nothing/', 300 * 1024, 'application/json'], ['/api/package/', 300 * 1024, 'application/json'],
  ['/api/package/', 3 * 1024 * 1024, 'application/json'], ['/api/file/', 5 * 1024 * 1024, 'multipart/form-data; boundary=zz'], ['/api/file/', 20 * 1024 * 1024, 'multipart/form-data; boundary=zz']] as const;
for (const [path, size, type] of cases) {
  for (const [m, p] of [['POST', path], ['GET', '/api/profile/']]) {
    try {
      const res = await client.request({ method: m as 'POST', path: p, headers: { 'content-type': type, ...(m === 'GET' || size > 1e6 ? { authorization: `Bearer ${admin.token}` } : {}) }, body: m === 'POST' ? Buffer.alloc(size, 120) : undefined });
      await res.body.text();
      console.log(path, size, m, res.statusCode, res.headers.connection);
    } catch (e) { console.log(path, size, m, 'ERR', String(e)); }
  }
}
await client.close(); server.close();
