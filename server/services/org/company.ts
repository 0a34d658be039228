import { randomBytes } from 'node:crypto';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { RegisterCompanyBody } from '../../../shared/schemas/org';
import type { COMPANY_STATUSES } from '../../../shared/schemas/people';
import type { Deps } from '../../deps';
import { company, user } from '../../db/schema/index';
import { conflict, forbidden, notFound } from '../../errors';
import { twinOf } from '../../db/twin';
import type { ResourceContext, Row } from '../../resources/crud';
import type { SessionUser } from '../auth/session';

type CompanyRow = typeof company.$inferSelect;
export type CompanyStatus = (typeof COMPANY_STATUSES)[number];

/** A company login sees only its own company. */
export function companyScope(me: SessionUser): SQL | undefined {
  return me.companyId != null ? eq(company.id, me.companyId) : undefined;
}

/** Company codes are printed on labels and typed at the depot, so two companies never share one. */
export async function validateCompany(values: Row, { deps, existing }: ResourceContext): Promise<void> {
  const dup = await twinOf(deps.db, company, [eq(company.code, String(values.code))], existing?.id);
  if (dup) throw conflict(`Company code ${String(values.code)} is already used by company ${dup.id}`);
}

/** Registrations from one address per hour: enough for an office, too few for a spam run. */
export const REGISTER_LIMIT = 5;
export const REGISTER_WINDOW_MS = 3600_000;

/** `Acme Freight Pty` -> `ACMEFREI-3F9A`: readable, and the random tail keeps it unique. */
function deriveCode(name: string): string {
  const letters = name
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 8);
  // A code holds a letter (shared/schemas/people.ts companyCode): `123 Pty` -> `C123PTY-...`.
  const stem = /[A-Z]/.test(letters) ? letters : `C${letters}`;
  return `${stem}-${randomBytes(2).toString('hex').toUpperCase()}`;
}

/** The one answer to a registration, whether the e-mail was new or already had an account. */
export const registeredMessage = (email: string) =>
  `Thank you. We have sent an e-mail to ${email} about what happens next; an administrator reviews new companies before they can log in.`;

/**
 * A self-registered company waits as `pending` with its login; it cannot sign in until an admin
 * approves it through the status change. `passwordHash` is computed before the transaction, whether
 * or not the e-mail is new. An e-mail that already has an account (any account, the super admin's
 * included) gets the same answer as a new one, so the endpoint cannot tell who has an account: the
 * account's owner is told by e-mail instead and nothing else changes (`existing` names it).
 */
export async function registerCompany(
  deps: Deps,
  body: z.output<typeof RegisterCompanyBody>,
  passwordHash: string,
): Promise<{ company: CompanyRow; user: typeof user.$inferSelect } | { existing: number }> {
  const now = deps.clock.now();
  // The code first: its conflict is the same answer whoever owns the e-mail.
  const code = body.code ?? deriveCode(body.name);
  if (await deps.db.select({ id: company.id }).from(company).where(eq(company.code, code)).get()) {
    throw conflict(`Company code ${code} is already used; choose another`);
  }
  const taken = await deps.db.select({ id: user.id }).from(user).where(eq(user.email, body.email)).get();
  if (taken) {
    await deps.mailer.send({
      to: body.email,
      subject: 'Someone tried to register a company with your e-mail address',
      body:
        'Someone asked to register a company on Courier with this e-mail address, which already has an account. ' +
        'Nothing was changed. If it was you, log in instead (or reset your password from the login page); otherwise you can ignore this message.',
    });
    return { existing: taken.id };
  }
  const co = await deps.db
    .insert(company)
    .values({
      name: body.name,
      email: body.email,
      phone: body.phone,
      address: body.address,
      abn: body.abn,
      code,
      status: 'pending',
      created_at: now,
      updated_at: now,
    })
    .returning()
    .get();
  const login = await deps.db
    .insert(user)
    .values({
      name: body.contact_name ?? body.name,
      email: body.email,
      phone: body.phone,
      role: 'company',
      company_id: co.id,
      password_hash: passwordHash,
      created_at: now,
      updated_at: now,
    })
    .returning()
    .get();
  await deps.mailer.send({
    to: body.email,
    subject: 'Your Courier registration is waiting for approval',
    body: `Thank you for registering ${body.name} (code ${code}). You can log in once an administrator approves the account.`,
  });
  return { company: co, user: login };
}

/**
 * Moves a company between pending, active and suspended. Its logins' tokens stop working while it
 * is not active (the session check reads the status), and its new packages are refused. Answers
 * the row before and after, for the audit line.
 */
export async function changeCompanyStatus(
  deps: Deps,
  me: SessionUser,
  id: number,
  status: CompanyStatus,
): Promise<{ before: CompanyRow; after: CompanyRow }> {
  // Another company is outside a company login's scope (404); its own status is staff's decision.
  if (me.companyId != null && me.companyId !== id) throw notFound(`Company ${id} not found`);
  if (me.companyId != null) throw forbidden('A company cannot change its own status');
  const existing = await deps.db.select().from(company).where(eq(company.id, id)).get();
  if (!existing) throw notFound(`Company ${id} not found`);
  if (existing.status === status) return { before: existing, after: existing };
  const row = await deps.db.update(company).set({ status, updated_at: deps.clock.now() }).where(eq(company.id, id)).returning().get();
  if (existing.status === 'pending' && status === 'active') {
    const logins = await deps.db
      .select({ email: user.email })
      .from(user)
      .where(and(eq(user.company_id, id), eq(user.role, 'company'), isNull(user.deleted_at)))
      .all();
    for (const l of logins) {
      await deps.mailer.send({
        to: l.email,
        subject: 'Your Courier account is approved',
        body: `${row.name} is approved; you can log in now.`,
      });
    }
  }
  return { before: existing, after: row };
}
