import { getRequestListener } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { UPLOAD_LIMIT } from './bodyReader';

/**
 * The HTTP server around the app, with one rule the fetch layer cannot keep: every request gets an
 * HTTP answer, and a keep-alive connection survives a request whose body was never read (refused
 * by authentication before the body, a route that ignores it). Otherwise a phone's photo upload
 * with an expired session sees "socket closed", retries with back-off and never asks the driver to
 * log in again.
 *
 * - A body the app did not read is drained (read and discarded) once the answer is sent, up to
 *   `drainLimit` bytes; the connection stays open for the next request.
 * - A body declared larger than that (the app answers 413) or growing past it while drained: the
 *   answer carries `Connection: close`, and the socket is closed gracefully (lingering close: our
 *   side is shut, the client's remaining bytes are read and dropped for a while) so the client reads
 *   the answer instead of a reset.
 */
export interface ListenOptions {
  port: number;
  hostname?: string;
  drainLimit?: number;
  lingerMs?: number;
}

type Fetch = Parameters<typeof getRequestListener>[0];

const LINGER_MS = 5_000;

/** Shuts our side, keeps reading (and dropping) what the client still sends, then closes. */
function lingeringClose(socket: Socket, lingerMs: number): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.on('close', () => clearTimeout(timer));
  socket.on('end', () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  socket.resume();
  socket.end();
}

export function courierRequestHandler(fetch: Fetch, options: { drainLimit?: number; lingerMs?: number } = {}) {
  const drainLimit = options.drainLimit ?? UPLOAD_LIMIT;
  const lingerMs = options.lingerMs ?? LINGER_MS;
  // The app's own cleanup closes sockets after a short drain; this handler does it instead.
  const listener = getRequestListener(fetch, { autoCleanupIncoming: false });
  return (req: IncomingMessage, res: ServerResponse) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const declared = Number(req.headers['content-length'] ?? NaN);
    const oversized = hasBody && Number.isFinite(declared) && declared > drainLimit;
    const socket = req.socket;
    if (oversized) {
      res.shouldKeepAlive = false;
      // Node would destroy the socket right after the answer, with the client's body still
      // arriving: the kernel then resets the connection and the client may never read the 413.
      socket.destroySoon = () => lingeringClose(socket, lingerMs);
    }
    if (hasBody && !oversized) {
      res.once('finish', () => {
        if (req.readableEnded || req.destroyed) return;
        let seen = 0;
        req.removeAllListeners('data');
        req.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > drainLimit) {
            req.removeAllListeners('data');
            lingeringClose(socket, lingerMs);
          }
        });
        req.resume();
      });
    }
    void listener(req, res);
  };
}

export function listen(fetch: Fetch, options: ListenOptions, onListening?: (port: number) => void): Server {
  const server = createServer(courierRequestHandler(fetch, options));
  server.listen(options.port, options.hostname, () => {
    const address = server.address();
    onListening?.(typeof address === 'object' && address ? address.port : options.port);
  });
  return server;
}
