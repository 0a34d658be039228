import type { Db } from '../../db/client';
import { enqueueMessage } from '../messages/outbox';

export interface Mail {
  to: string;
  subject: string;
  body: string;
  kind?: string;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Account mail (password resets, registrations) joins the one message outbox, written in the
 * caller's transaction; the message dispatcher sends it over SMTP after the commit (or, without
 * SMTP_URL, logs it and keeps it in the table for the operator).
 */
export function outboxMailer(db: Db, now: () => number): Mailer {
  return {
    async send(mail) {
      await enqueueMessage(db, now(), {
        channel: 'email',
        to: mail.to,
        kind: mail.kind ?? 'account',
        subject: mail.subject,
        body: mail.body,
      });
    },
  };
}
