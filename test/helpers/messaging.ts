/**
 * Real outside ends for the message tests: an SMTP server (smtp-server, the nodemailer project's)
 * in the test process that keeps every message it accepts, and a loopback stand-in of a
 * Twilio-style SMS API that answers with scripted failures.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
}

/** Quoted-printable soft breaks and =XX bytes, as nodemailer writes non-ASCII or long lines. */
function decodeQp(s: string): string {
  const joined = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-F]{2}$/i.exec(joined.slice(i + 1, i + 3))?.[0] : undefined;
    if (hex) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Header and plain-text body of a single-part message (what the dispatcher sends). */
export function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  let text = encoding === 'quoted-printable' ? decodeQp(body) : encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : body;
  text = text.replace(/\r\n/g, '\n').trim();
  let subject = header('Subject');
  // RFC 2047 encoded words (non-ASCII subjects).
  subject = subject
    .replace(/=\?utf-8\?([QB])\?(.*?)\?=/gi, (_w, enc: string, data: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQp(data.replace(/_/g, ' ')),
    )
    .replace(/\?=\s+=\?/g, '');
  return { subject, text };
}

export async function startSmtp(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw, ...parseMail(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

export interface SmsRequest {
  path: string;
  auth: string | null;
  form: URLSearchParams;
  status: number;
}

/**
 * Speaks the Twilio Messages API: POST /2010-04-01/Accounts/{sid}/Messages.json, form body, basic
 * auth, 201 with a `sid`. `fail` scripts the next answers: a status, and optional Retry-After seconds.
 */
export async function startSmsStandIn(sid = 'AC0123456789', authToken = 'secret-token') {
  const requests: SmsRequest[] = [];
  const script: { status: number; retryAfter?: number }[] = [];
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((ok) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
    });
  const expectedAuth = `Basic ${Buffer.from(`${sid}:${authToken}`).toString('base64')}`;
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const form = new URLSearchParams(body);
      let status = 201;
      const next = script.shift();
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${sid}/Messages.json`) status = 404;
      else if (req.headers.authorization !== expectedAuth) status = 401;
      else if (!form.get('To') || !form.get('Body') || !form.get('From')) status = 400;
      else if (next) status = next.status;
      requests.push({ path: req.url ?? '', auth: req.headers.authorization ?? null, form, status });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (next?.retryAfter != null) headers['retry-after'] = String(next.retryAfter);
      res.writeHead(status, headers);
      res.end(
        JSON.stringify(
          status === 201
            ? { sid: `SM${String(requests.length).padStart(32, '0')}`, status: 'queued', to: form.get('To'), body: form.get('Body') }
            : { code: status, message: status === 429 ? 'Too Many Requests' : 'error', status },
        ),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sid,
    authToken,
    requests,
    /** The next answers, in order; after them every well-formed request gets 201. */
    fail(...answers: { status: number; retryAfter?: number }[]) {
      script.push(...answers);
    },
    /** Messages the provider accepted. */
    accepted: () => requests.filter((r) => r.status === 201),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
