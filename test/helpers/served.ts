import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { Client } from 'undici';
import { listen } from '../../server/http/listen';
import type { TestApp } from './app';

const open: { server: Server; client: Client }[] = [];

/** Closes what `served` opened; use in afterEach. */
export async function closeServed(): Promise<void> {
  for (const { server, client } of open.splice(0)) {
    await client.close();
    server.closeAllConnections();
    await new Promise((r) => {
      server.close(r);
    });
  }
}

/**
 * The app behind the listener server/main.ts uses (server/http/listen.ts), on a real port, and one
 * keep-alive undici connection to it (pipelining 1: requests go one after another on one socket).
 */
export async function served(t: TestApp) {
  const server = listen(t.app.fetch, { port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  const client = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { pipelining: 1 });
  open.push({ server, client });
  /** A `Readable` body goes without Content-Length (chunked), as a streaming client sends it. */
  const send = async (method: string, path: string, headers: Record<string, string>, body?: Buffer | string | Readable) => {
    const res = await client.request({ method: method as 'GET', path, headers, body });
    const text = await res.body.text();
    return { status: res.statusCode, connection: String(res.headers.connection), text };
  };
  return { send, connections: () => connections };
}
