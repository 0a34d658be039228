/**
 * A loopback stand-in of the Amazon S3 REST API, the subset the file store uses, spoken the way S3
 * speaks it (path-style addressing): PUT, GET, HEAD and DELETE object, and ListObjectsV2 with
 * continuation tokens. Every request must carry a valid AWS Signature Version 4 for the configured
 * key pair (403 SignatureDoesNotMatch otherwise), a signed payload must match its
 * `x-amz-content-sha256`, and a `x-amz-checksum-crc32` must match the body (400 BadDigest). GET with
 * `x-amz-checksum-mode: ENABLED` answers the stored checksum, so the client can check what it read.
 *
 * Failures are scripted: `failNext` answers the next requests with an S3 error (500 InternalError,
 * 503 SlowDown...), `corruptNextGet` flips a byte of the next object body served, `cutNextGet`
 * closes the connection half way through the next body, `stallNext` never answers.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

export interface S3Object {
  bytes: Buffer;
  lastModified: Date;
  etag: string;
  crc32: string | null;
}

export interface S3Standin {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Objects by bucket and key, as stored. */
  buckets: Map<string, Map<string, S3Object>>;
  /** Every request seen: method, path and query (for asserting paging and retries). */
  requests: { method: string; path: string; query: URLSearchParams; status: number }[];
  /** The next `count` requests (matching `method` when given) answer this S3 error and change nothing. */
  failNext(count: number, status: 500 | 503 | 403, method?: string): void;
  corruptNextGet(): void;
  cutNextGet(): void;
  /** The next `count` requests get no answer at all (a hung service); the connection stays open. */
  stallNext(count: number): void;
  /** Sets an object's LastModified (the sweep's clock on S3). */
  age(bucket: string, key: string, at: Date): void;
  close(): Promise<void>;
}

const ERROR_CODES: Record<number, string> = { 500: 'InternalError', 503: 'SlowDown', 403: 'AccessDenied' };

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function errorXml(code: string, message: string, resource: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><Resource>${xmlEscape(resource)}</Resource><RequestId>standin</RequestId></Error>`;
}

/** RFC 3986 encoding as SigV4 canonicalises query parameters. */
const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** Checks AWS Signature Version 4 (header form) the way S3 does; answers why it fails, or null. */
function verifySignature(
  req: IncomingMessage,
  rawPath: string,
  rawQuery: string,
  body: Buffer,
  keys: { id: string; secret: string; region: string },
): string | null {
  const auth = req.headers.authorization ?? '';
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([a-f0-9]{64})$/.exec(
      auth,
    );
  if (!m) return 'missing or malformed Authorization header';
  const [, id, day, region, signedHeaders, signature] = m as unknown as [string, string, string, string, string, string];
  if (id !== keys.id) return 'unknown access key';
  if (region !== keys.region) return `wrong region ${region}`;
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(day)) return 'x-amz-date does not match the credential scope';
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!payloadHash) return 'missing x-amz-content-sha256';
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256Hex(body)) return 'payload does not match x-amz-content-sha256';
  const names = signedHeaders.split(';');
  if (!names.includes('host')) return 'host is not signed';
  const canonicalHeaders = names
    .map(
      (n) =>
        `${n}:${String(req.headers[n] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalQuery = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [k, v = ''] = pair.split('=') as [string, string?];
      return [uriEncode(decodeURIComponent(k)), uriEncode(decodeURIComponent(v))] as const;
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [req.method, rawPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${keys.secret}`, day), region), 's3'), 'aws4_request');
  const expected = createHmac('sha256', signingKey).update(stringToSign).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex')) ? null : 'signature does not match';
}

const crc32Base64 = (bytes: Buffer) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(crc32(bytes) >>> 0);
  return b.toString('base64');
};

export async function startS3Standin(options: { buckets?: string[]; pageSize?: number; region?: string } = {}): Promise<S3Standin> {
  const accessKeyId = 'AKIASTANDIN000000000';
  const secretAccessKey = 'standin/secret/key/000000000000000000000';
  const region = options.region ?? 'eu-central-1';
  const pageSize = options.pageSize ?? 1000;
  const buckets = new Map<string, Map<string, S3Object>>((options.buckets ?? ['courier']).map((b) => [b, new Map()]));
  const requests: S3Standin['requests'] = [];
  const failures: { status: 500 | 503 | 403; method?: string }[] = [];
  let corrupt = 0;
  let cut = 0;
  let stall = 0;

  function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, {
      'content-type': 'application/xml',
      'content-length': String(Buffer.byteLength(body)),
      'x-amz-request-id': 'standin',
      ...headers,
    });
    res.end(body);
  }

  function listV2(res: ServerResponse, bucketName: string, objects: Map<string, S3Object>, query: URLSearchParams): void {
    const prefix = query.get('prefix') ?? '';
    const maxKeys = Math.min(Number(query.get('max-keys') ?? 1000) || 1000, pageSize);
    const token = query.get('continuation-token');
    const after = token ? Buffer.from(token, 'base64url').toString('utf8') : (query.get('start-after') ?? '');
    const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
    const page = keys.slice(0, maxKeys);
    const truncated = keys.length > page.length;
    const contents = page
      .map((k) => {
        const o = objects.get(k) as S3Object;
        return `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>&quot;${o.etag}&quot;</ETag><Size>${o.bytes.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join('');
    const next = truncated
      ? `<NextContinuationToken>${Buffer.from(page[page.length - 1] as string).toString('base64url')}</NextContinuationToken>`
      : '';
    send(
      res,
      200,
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xmlEscape(bucketName)}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${token ? `<ContinuationToken>${xmlEscape(token)}</ContinuationToken>` : ''}${next}${contents}</ListBucketResult>`,
    );
  }

  function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): number {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    const query = new URLSearchParams(rawQuery);
    const method = req.method ?? 'GET';
    const failure = failures.findIndex((f) => !f.method || f.method === method);
    if (failure >= 0) {
      const { status } = failures.splice(failure, 1)[0] as { status: 500 | 503 | 403 };
      send(res, status, method === 'HEAD' ? '' : errorXml(ERROR_CODES[status] as string, 'scripted failure', rawPath));
      return status;
    }
    const bad = verifySignature(req, rawPath, rawQuery, body, { id: accessKeyId, secret: secretAccessKey, region });
    if (bad) {
      send(res, 403, method === 'HEAD' ? '' : errorXml('SignatureDoesNotMatch', bad, rawPath));
      return 403;
    }
    const [, bucketName = '', ...rest] = rawPath.split('/');
    const key = rest.map((s) => decodeURIComponent(s)).join('/');
    const objects = buckets.get(bucketName);
    if (!objects) {
      send(res, 404, method === 'HEAD' ? '' : errorXml('NoSuchBucket', 'The specified bucket does not exist', rawPath));
      return 404;
    }
    if (!key) {
      if (method === 'GET' && query.get('list-type') === '2') {
        listV2(res, bucketName, objects, query);
        return 200;
      }
      send(res, 501, errorXml('NotImplemented', 'not part of the stand-in', rawPath));
      return 501;
    }
    switch (method) {
      case 'PUT': {
        const declared = req.headers['content-length'];
        if (declared !== undefined && Number(declared) !== body.length) {
          send(res, 400, errorXml('IncompleteBody', 'body shorter than Content-Length', rawPath));
          return 400;
        }
        const checksum = req.headers['x-amz-checksum-crc32'];
        if (typeof checksum === 'string' && checksum !== crc32Base64(body)) {
          send(res, 400, errorXml('BadDigest', 'The CRC32 you specified did not match the calculated checksum.', rawPath));
          return 400;
        }
        const etag = createHash('md5').update(body).digest('hex');
        objects.set(key, { bytes: body, lastModified: new Date(), etag, crc32: typeof checksum === 'string' ? checksum : null });
        res.writeHead(200, {
          etag: `"${etag}"`,
          'content-length': '0',
          ...(typeof checksum === 'string' ? { 'x-amz-checksum-crc32': checksum } : {}),
        });
        res.end();
        return 200;
      }
      case 'GET':
      case 'HEAD': {
        const o = objects.get(key);
        if (!o) {
          send(res, 404, method === 'HEAD' ? '' : errorXml('NoSuchKey', 'The specified key does not exist.', rawPath));
          return 404;
        }
        const headers: Record<string, string> = {
          'content-type': 'application/octet-stream',
          'content-length': String(o.bytes.length),
          etag: `"${o.etag}"`,
          'last-modified': o.lastModified.toUTCString(),
          'accept-ranges': 'bytes',
        };
        if (o.crc32 && req.headers['x-amz-checksum-mode'] === 'ENABLED') headers['x-amz-checksum-crc32'] = o.crc32;
        res.writeHead(200, headers);
        if (method === 'HEAD') {
          res.end();
          return 200;
        }
        if (cut > 0) {
          cut -= 1;
          // Half the body reaches the client, then the connection drops.
          res.write(o.bytes.subarray(0, Math.floor(o.bytes.length / 2)), () => setTimeout(() => res.socket?.destroy(), 20));
          return 200;
        }
        let out = o.bytes;
        if (corrupt > 0) {
          corrupt -= 1;
          out = Buffer.from(o.bytes);
          out[0] = (out[0] as number) ^ 0xff;
        }
        res.end(out);
        return 200;
      }
      case 'DELETE':
        objects.delete(key);
        res.writeHead(204);
        res.end();
        return 204;
      default:
        send(res, 405, errorXml('MethodNotAllowed', 'The specified method is not allowed against this resource.', rawPath));
        return 405;
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      if (stall > 0) {
        stall -= 1;
        requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, status: 0 });
        return;
      }
      const status = handle(req, res, Buffer.concat(chunks));
      requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, status });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId,
    secretAccessKey,
    region,
    buckets,
    requests,
    failNext(count, status, method) {
      for (let i = 0; i < count; i++) failures.push({ status, ...(method ? { method } : {}) });
    },
    corruptNextGet() {
      corrupt += 1;
    },
    cutNextGet() {
      cut += 1;
    },
    stallNext(count) {
      stall += count;
    },
    age(bucket, key, at) {
      const o = buckets.get(bucket)?.get(key);
      if (!o) throw new Error(`no object ${bucket}/${key}`);
      o.lastModified = at;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
