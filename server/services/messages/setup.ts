import type { Deps } from '../../deps';
import { recipientRenderer } from '../recipients/render';
import { createMessageDispatcher, type MessageDispatcher, type MessageDispatcherOptions } from './dispatcher';
import { httpSmsProvider, logEmailTransport, logSmsProvider, smtpTransport, type EmailTransport, type SmsProvider } from './transports';

export interface MessagingEnv {
  SMTP_URL?: string;
  MAIL_FROM?: string;
  SMS_URL?: string;
  SMS_ACCOUNT_SID?: string;
  SMS_AUTH_TOKEN?: string;
  SMS_FROM?: string;
}

/** SMTP_URL -> nodemailer, else the log; SMS_URL with its credentials -> the Twilio-style HTTP API, else the log. */
export function transportsFromEnv(
  env: MessagingEnv,
  log: (line: string) => void,
): { email: EmailTransport; sms: SmsProvider; fromAddress: string } {
  const email = env.SMTP_URL ? smtpTransport(env.SMTP_URL) : logEmailTransport(log);
  let sms: SmsProvider = logSmsProvider(log);
  if (env.SMS_URL) {
    if (!env.SMS_ACCOUNT_SID || !env.SMS_AUTH_TOKEN || !env.SMS_FROM) {
      log('[messages] SMS_URL is set without SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM: text messages are only logged');
    } else {
      sms = httpSmsProvider({ url: env.SMS_URL, accountSid: env.SMS_ACCOUNT_SID, authToken: env.SMS_AUTH_TOKEN, from: env.SMS_FROM });
    }
  }
  return { email, sms, fromAddress: env.MAIL_FROM ?? 'courier@localhost' };
}

/** The app's message dispatcher: its database, clock and group commit, recipient notices rendered with its PUBLIC_URL. */
export function messageDispatcherFor(
  deps: Deps,
  transports: { email: EmailTransport; sms: SmsProvider; fromAddress: string },
  extra: Partial<Omit<MessageDispatcherOptions, 'db' | 'clock' | 'email' | 'sms' | 'fromAddress'>> = {},
): MessageDispatcher {
  return createMessageDispatcher({
    db: deps.db,
    clock: deps.clock,
    writes: deps.writes,
    ...transports,
    render: recipientRenderer(deps.db, {
      publicUrl: deps.config.publicUrl,
      maxAttempts: deps.config.maxAttempts,
      timeZone: deps.config.timeZone,
    }),
    ...extra,
  });
}
