import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Deps } from '../../deps';
import { iso } from '../../clock';
import { messageOutbox, pkg } from '../../db/schema/index';
import { forbidden } from '../../errors';
import { isStaff } from '../../../shared/roles';
import { RECIPIENT_EVENTS, type MessageLogQuery } from '../../../shared/schemas/recipients';
import type { SessionUser } from '../auth/session';

/**
 * The recipient notices sent, waiting or failed, newest first: staff see every company's (or the one
 * named), a company only its own; drivers none. Account mail (password resets) is never listed: its
 * body holds a login link. Bodies are not returned at all; the subject and the outcome are enough to
 * answer "did they get told?".
 */
export async function messageLog(deps: Deps, me: SessionUser, query: z.output<typeof MessageLogQuery>) {
  const where: SQL[] = [inArray(messageOutbox.kind, [...RECIPIENT_EVENTS])];
  if (me.role === 'company') {
    if (me.companyId == null) throw forbidden('This login belongs to no company');
    if (query.company != null && query.company !== me.companyId) throw forbidden('A company reads only its own recipient messages');
    where.push(eq(messageOutbox.company_id, me.companyId));
  } else if (isStaff(me.role)) {
    if (query.company != null) where.push(eq(messageOutbox.company_id, query.company));
  } else {
    throw forbidden('Only companies and staff read recipient messages');
  }
  if (query.package != null) where.push(eq(messageOutbox.package_id, query.package));
  if (query.status === 'failed') where.push(inArray(messageOutbox.status, ['dead', 'uncertain']));
  else if (query.status) where.push(eq(messageOutbox.status, query.status));
  const filter = and(...where);
  const total = (await deps.db.select({ n: count() }).from(messageOutbox).where(filter).get())?.n ?? 0;
  const rows = await deps.db
    .select({ m: messageOutbox, hawb: pkg.hawb })
    .from(messageOutbox)
    .leftJoin(pkg, eq(pkg.id, messageOutbox.package_id))
    .where(filter)
    .orderBy(desc(messageOutbox.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size)
    .all();
  return {
    count: Number(total),
    results: rows.map(({ m, hawb }) => ({
      id: m.id,
      package: m.package_id,
      hawb,
      company: m.company_id,
      channel: m.channel,
      to: m.to,
      kind: m.kind,
      subject: m.subject,
      status: m.status,
      attempts: m.attempts,
      last_error: m.last_error,
      created_at: iso(m.created_at) ?? '',
      sent_at: m.sent_at ? (iso(m.sent_at) ?? null) : null,
    })),
  };
}
