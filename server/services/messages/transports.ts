import nodemailer from 'nodemailer';

/** What one attempt came to: sent, worth another try later (`retryAfterMs` when the provider said), or never going to work. */
export type SendOutcome = { ok: true; providerId?: string | null } | { ok: false; retry: boolean; error: string; retryAfterMs?: number };

export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  text: string;
}
export interface EmailTransport {
  readonly kind: 'smtp' | 'log';
  send(mail: OutgoingEmail): Promise<SendOutcome>;
}
export interface OutgoingSms {
  to: string;
  body: string;
}
export interface SmsProvider {
  readonly kind: 'http' | 'log';
  send(sms: OutgoingSms): Promise<SendOutcome>;
}

interface SmtpError {
  responseCode?: number;
  code?: string;
  message?: string;
}

/**
 * E-mail over SMTP_URL (nodemailer). A 5xx reply from the server is final (bad address, refused);
 * a 4xx reply or a broken connection is retried later.
 */
export function smtpTransport(url: string): EmailTransport {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        const info = await transport.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text });
        return { ok: true, providerId: typeof info.messageId === 'string' ? info.messageId : null };
      } catch (err) {
        const e = err as SmtpError;
        const code = e.responseCode;
        return {
          ok: false,
          retry: !(code != null && code >= 500),
          error: `${code != null ? `SMTP ${code}: ` : ''}${e.message ?? String(err)}`.slice(0, 500),
        };
      }
    },
  };
}

/** Without SMTP_URL: the message stays in the outbox table (status `logged`) and one line goes to the log. */
export function logEmailTransport(log: (line: string) => void): EmailTransport {
  return {
    kind: 'log',
    send(mail) {
      log(`[messages] e-mail not sent (no SMTP_URL) to ${mail.to.replace(/^.*@/, '***@')}: ${mail.subject}`);
      return Promise.resolve({ ok: true, providerId: null });
    },
  };
}

export interface HttpSmsOptions {
  /** Base URL of a Twilio-style API, e.g. https://api.twilio.com */
  url: string;
  accountSid: string;
  authToken: string;
  /** The sending number or sender id. */
  from: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Seconds or an HTTP date, as Retry-After may carry either. */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const secs = Number(header);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/**
 * SMS through a Twilio-style HTTP API: POST form `To`, `From`, `Body` to
 * `/2010-04-01/Accounts/{sid}/Messages.json` with basic auth. 2xx is sent; 429 and 5xx are retried
 * (honouring Retry-After); other 4xx (bad number, bad credentials) are final.
 */
export function httpSmsProvider(opts: HttpSmsOptions): SmsProvider {
  const send = opts.fetch ?? fetch;
  const endpoint = `${opts.url.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
  return {
    kind: 'http',
    async send(sms) {
      try {
        const res = await send(endpoint, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ To: sms.to, From: opts.from, Body: sms.body }).toString(),
          redirect: 'manual',
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        });
        const text = await res.text().catch(() => '');
        if (res.ok) {
          let sid: string | null = null;
          try {
            sid = ((JSON.parse(text) as { sid?: unknown }).sid as string) ?? null;
          } catch {
            /* a 2xx without JSON is still sent */
          }
          return { ok: true, providerId: typeof sid === 'string' ? sid : null };
        }
        const retry = res.status === 429 || res.status >= 500;
        return {
          ok: false,
          retry,
          error: `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
          retryAfterMs: retryAfterMs(res.headers.get('retry-after'), Date.now()),
        };
      } catch (err) {
        return { ok: false, retry: true, error: (err instanceof Error ? err.message : String(err)).slice(0, 500) };
      }
    },
  };
}

/** The default: nothing leaves the machine; the log says a text would have gone. */
export function logSmsProvider(log: (line: string) => void): SmsProvider {
  return {
    kind: 'log',
    send(sms) {
      log(`[messages] SMS not sent (no SMS_URL) to ${sms.to.slice(0, 4)}***: ${sms.body.length} characters`);
      return Promise.resolve({ ok: true, providerId: null });
    },
  };
}
