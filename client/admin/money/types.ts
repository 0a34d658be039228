import type { z } from 'zod';
import type { Adjustment, Invoice, InvoiceDetails, Txn, Wallet, WalletDetails } from '../../../shared/schemas/money';

/** The API's money records, typed from the server's own zod schemas. */
export type WalletT = z.infer<typeof Wallet>;
export type TxnT = z.infer<typeof Txn>;
export type WalletDetailsT = z.infer<typeof WalletDetails>;
export type InvoiceT = z.infer<typeof Invoice>;
export type InvoiceDetailsT = z.infer<typeof InvoiceDetails>;
export type AdjustmentT = z.infer<typeof Adjustment>;

export const TXN_LABELS: Record<TxnT['kind'], string> = {
  recharge: 'Recharge',
  payment: 'Payment',
  charge: 'Charge',
  refund: 'Refund',
  adjustment: 'Adjustment',
  reprice: 'Re-price',
  cod_collected: 'Cash on delivery collected',
  cod_payout: 'Cash on delivery paid out',
};
export const INVOICE_KIND_LABELS: Record<InvoiceT['kind'], string> = {
  statement: 'Statement',
  receipt: 'Receipt',
  adjustment: 'Adjustment note',
};
