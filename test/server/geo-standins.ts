import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on loopback, answering as the outside service would; every request is recorded. */
export async function standIn(handler: Handler): Promise<{ url: string; requests: URL[]; close: () => Promise<void>; server: Server }> {
  const requests: URL[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    handler(url, req, res);
  });
  await new Promise<void>((r) => {
    server.listen(0, '127.0.0.1', () => r());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** A Nominatim `/search?format=jsonv2` answer for one house. */
export const nominatimHouse = (lat: number, lon: number, name: string) => [
  {
    place_id: 1,
    licence: 'Data © OpenStreetMap contributors, ODbL 1.0',
    osm_type: 'node',
    osm_id: 1,
    lat: String(lat),
    lon: String(lon),
    category: 'place',
    type: 'house',
    place_rank: 30,
    importance: 0.1,
    addresstype: 'place',
    name: '',
    display_name: name,
    boundingbox: [String(lat - 0.0001), String(lat + 0.0001), String(lon - 0.0001), String(lon + 0.0001)],
  },
];
