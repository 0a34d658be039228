import type { Db } from '../../db/client';
import { emailOutbox } from '../../db/schema/index';

export interface Mail { to: string; subject: string; body: string }
export interface Mailer { send(mail: Mail): void }

/**
 * Without SMTP_URL mail is kept in the outbox table and logged, so a reset link can be read by the
 * operator. The row is written synchronously inside the caller's transaction.
 */
export function outboxMailer(db: Db, now: () => number, log: (line: string) => void = () => {}): Mailer {
  return {
    send(mail) {
      db.insert(emailOutbox).values({ ...mail, created_at: now() }).run();
      log(`mail to ${mail.to}: ${mail.subject}`);
    },
  };
}
