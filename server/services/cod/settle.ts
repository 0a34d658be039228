import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoiceLine, walletTxn } from '../../db/schema/index';
import { conflict } from '../../errors';
import { audit } from '../audit/record';
import { append, ensureWallet, findCompany, type Ledger } from '../money/wallets';

/**
 * What the courier owes a shipper for cash on delivery (issue 34): every `cod_collected` credit of its
 * wallet, less what was settled: paid out (`cod_payout`, a debit) or netted against charges (the
 * collections a postpaid statement lists as credit lines, less the pay-outs it lists, since the
 * company's payment of that statement settles exactly that). All in the existing integer ledger.
 */
export async function codPosition(db: Db, companyId: number) {
  const co = await findCompany(db, companyId);
  const sums = await db
    .select({ kind: walletTxn.kind, s: sql<number | null>`sum(${walletTxn.amount_cents})` })
    .from(walletTxn)
    .where(and(eq(walletTxn.company_id, companyId), inArray(walletTxn.kind, ['cod_collected', 'cod_payout'])))
    .groupBy(walletTxn.kind)
    .all();
  const of = (k: string) => Number(sums.find((r) => r.kind === k)?.s ?? 0);
  const netted = Number(
    (
      await db
        .select({ s: sql<number | null>`sum(${walletTxn.amount_cents})` })
        .from(walletTxn)
        .innerJoin(invoiceLine, eq(invoiceLine.txn_id, walletTxn.id))
        .where(and(eq(walletTxn.company_id, companyId), inArray(walletTxn.kind, ['cod_collected', 'cod_payout'])))
        .get()
    )?.s ?? 0,
  );
  const collected = of('cod_collected');
  const paid = 0 - of('cod_payout');
  return {
    company: companyId,
    currency: co.currency,
    collected_cents: collected,
    netted_cents: netted,
    paid_cents: paid,
    owed_cents: collected - netted - paid,
  };
}

/**
 * Pays a shipper what it is owed (by bank transfer, outside the system): a `cod_payout` debit of its
 * wallet, never more than is owed, nor (prepaid) below zero. Audited.
 */
export async function payOut(deps: Ledger, actorId: number, input: { company: number; amount_cents: number; reference?: string }) {
  const pos = await codPosition(deps.db, input.company);
  if (input.amount_cents > pos.owed_cents) {
    throw conflict(`Only ${pos.owed_cents} is owed to company ${input.company} for cash on delivery`, {
      company: input.company,
      owed_cents: pos.owed_cents,
      requested_cents: input.amount_cents,
    });
  }
  const w = await ensureWallet(deps, input.company, actorId);
  const txn = await append(deps, w.id, {
    kind: 'cod_payout',
    amount_cents: -input.amount_cents,
    reason: 'Cash on delivery paid out',
    reference: input.reference ?? '',
    created_by: actorId,
  });
  await audit(deps.db, deps.clock.now(), actorId, 'cod.payout', `company:${input.company}`, {
    amount_cents: input.amount_cents,
    reference: input.reference,
    txn: txn.id,
  });
  return txn;
}
