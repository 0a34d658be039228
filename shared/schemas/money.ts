import { z } from 'zod';
import { INVOICE_KINDS, INVOICE_STATUSES, MAX_AMOUNT_CENTS, TXN_KINDS } from '../money';
import { ListQuery, requiredText, text } from './common';

const refId = () => z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const optRef = () => refId().nullable().optional();
const cents = () => z.number().int().min(0).max(MAX_AMOUNT_CENTS);
/** A positive amount of money in minor units (cents); direction is given separately. */
const positiveCents = () => z.number().int().min(1).max(MAX_AMOUNT_CENTS);
const currency = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as AUD');
const weight = () => z.number().finite().min(0).max(100_000);
const dimension = () => z.number().finite().min(0).max(10_000);
/** A day (UTC) or an instant, sent as ISO 8601. */
const when = () => z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

// Units of measurement ---------------------------------------------------------------------------

export const Unit = z.object({ id: z.number().int(), name: z.string(), symbol: z.string(), kg_factor: z.number(), is_active: z.boolean() });
export const UnitCreate = z.object({
  name: requiredText(60),
  symbol: requiredText(16),
  kg_factor: z.number().finite().positive().max(1_000_000),
  is_active: z.boolean().default(true),
});
export const UnitUpdate = UnitCreate.partial();

// Delivery rates (rate-card lines) ---------------------------------------------------------------

export const DeliveryRate = z.object({
  id: z.number().int(),
  name: z.string(),
  company: z.number().int().nullable(),
  zone: z.number().int().nullable(),
  package_type: z.number().int().nullable(),
  unit: z.number().int().nullable(),
  min_weight: z.number(),
  max_weight: z.number().nullable(),
  base_cents: z.number().int(),
  per_unit_cents: z.number().int(),
  currency: z.string(),
  volumetric_divisor: z.number().int(),
  is_active: z.boolean(),
  created_at: z.string(),
});
const rateFields = {
  name: text(120),
  company: optRef(),
  zone: optRef(),
  package_type: optRef(),
  unit: optRef(),
  min_weight: weight(),
  max_weight: weight().nullable(),
  base_cents: cents(),
  per_unit_cents: cents(),
  currency: currency(),
  volumetric_divisor: z.number().int().min(1).max(1_000_000),
  is_active: z.boolean(),
};
export const DeliveryRateCreate = z.object({
  ...rateFields,
  name: rateFields.name.default(''),
  min_weight: rateFields.min_weight.default(0),
  max_weight: rateFields.max_weight.optional(),
  per_unit_cents: rateFields.per_unit_cents.default(0),
  currency: rateFields.currency.optional(),
  volumetric_divisor: rateFields.volumetric_divisor.default(5000),
  is_active: rateFields.is_active.default(true),
});
export const DeliveryRateUpdate = z.object(rateFields).partial();

export const RateFilterQuery = z.object({
  company: z.coerce.number().int().positive().optional(),
  zone: z.coerce.number().int().positive().optional(),
  package_type: z.coerce.number().int().positive().optional(),
  unit: z.coerce.number().int().positive().optional(),
  weight: z.coerce.number().finite().min(0).max(100_000).optional(),
  currency: currency().optional(),
  is_active: z.enum(['true', 'false']).optional(),
});
export const RateList = z.object({ success: z.boolean(), count: z.number().int(), results: z.array(DeliveryRate) });

export const CompanyParams = z.object({ company_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const RateCard = z.object({
  success: z.boolean(),
  company: z.number().int(),
  currency: z.string(),
  /** `company` when the company has its own card, `default` when it is priced from the default card. */
  source: z.enum(['company', 'default']),
  rates: z.array(DeliveryRate),
});

export const QuoteBody = z.object({
  company: optRef(),
  zone: optRef(),
  suburb: optRef(),
  /** Or the place as a parcel carries it: postcode, place name, address line (located like a new parcel). */
  postcode: z.number().int().min(0).max(99_999_999).nullable().optional(),
  postcode_name: text(120).nullable().optional(),
  customer_address: text(500).nullable().optional(),
  package_type: optRef(),
  /** A package type by name, as a Package carries it (`pkg_type`). */
  pkg_type: text(120).nullable().optional(),
  weight: weight().nullable().optional(),
  length: dimension().nullable().optional(),
  width: dimension().nullable().optional(),
  height: dimension().nullable().optional(),
  currency: currency().optional(),
});
export type QuoteBody = z.infer<typeof QuoteBody>;
export const Quote = z.object({
  success: z.boolean(),
  message: z.string(),
  price_cents: z.number().int().nullable(),
  /** The same price in major units (what a Package's `price` carries). */
  price: z.number().nullable(),
  currency: z.string().nullable(),
  rate: z.number().int().nullable(),
  source: z.enum(['company', 'default']).nullable(),
  chargeable_weight: z.number(),
  volumetric_weight: z.number(),
  units: z.number().nullable(),
  extra_units: z.number().int().nullable(),
});

// Driver delivery rates --------------------------------------------------------------------------

export const DriverRate = z.object({
  id: z.number().int(),
  name: z.string(),
  driver: z.number().int().nullable(),
  zone: z.number().int().nullable(),
  package_type: z.number().int().nullable(),
  amount_cents: z.number().int(),
  currency: z.string(),
  effective_from: z.string(),
  effective_to: z.string().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
});
const driverRateFields = {
  name: text(120),
  driver: optRef(),
  zone: optRef(),
  package_type: optRef(),
  amount_cents: cents(),
  currency: currency(),
  effective_from: when(),
  effective_to: when().nullable(),
  is_active: z.boolean(),
};
export const DriverRateCreate = z.object({
  ...driverRateFields,
  name: driverRateFields.name.default(''),
  currency: driverRateFields.currency.default('AUD'),
  effective_from: driverRateFields.effective_from.optional(),
  effective_to: driverRateFields.effective_to.optional(),
  is_active: driverRateFields.is_active.default(true),
});
export const DriverRateUpdate = z.object(driverRateFields).partial();

// Wallets ----------------------------------------------------------------------------------------

export const Wallet = z.object({
  id: z.number().int(),
  company: z.number().int(),
  company_name: z.string(),
  billing_type: z.enum(['prepaid', 'postpaid']),
  currency: z.string(),
  balance_cents: z.number().int(),
  /** The balance formatted in major units, e.g. "12.50". */
  balance: z.string(),
  credit_limit_cents: z.number().int().nullable(),
  /** What may still be spent; null when unlimited (postpaid without a limit). */
  available_cents: z.number().int().nullable(),
  created_at: z.string(),
});
export const WalletCreate = z.object({ company: refId(), credit_limit_cents: cents().nullable().optional() });
export const WalletAnswer = z.object({ success: z.boolean(), message: z.string(), wallet: Wallet });

export const Txn = z.object({
  id: z.number().int(),
  wallet: z.number().int(),
  company: z.number().int(),
  kind: z.enum(TXN_KINDS),
  amount_cents: z.number().int(),
  balance_after_cents: z.number().int(),
  currency: z.string(),
  billing: z.enum(['prepaid', 'postpaid']),
  package: z.number().int().nullable(),
  reason: z.string(),
  reference: z.string(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  invoice: z.number().int().nullable(),
});
export const TxnQuery = ListQuery.extend({
  kind: z.enum(TXN_KINDS).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});

const rechargeFields = {
  amount_cents: positiveCents(),
  reference: text(120).default(''),
  note: text(500).default(''),
};
export const RechargeBody = z.object(rechargeFields);
export const CompanyRechargeBody = z.object({ company: refId(), ...rechargeFields });
/** A postpaid payment may settle one issued statement; its amount must then equal the statement's total. */
export const PaymentBody = z.object({ ...rechargeFields, invoice: refId().optional() });
export const CompanyPaymentBody = z.object({ company: refId(), ...rechargeFields, invoice: refId().optional() });

export const BalanceCheckQuery = z.object({
  company: z.coerce.number().int().positive().optional(),
  amount_cents: z.coerce.number().int().min(0).max(MAX_AMOUNT_CENTS).optional(),
});
export const BalanceCheck = z.object({
  success: z.boolean(),
  message: z.string(),
  company: z.number().int(),
  billing_type: z.enum(['prepaid', 'postpaid']),
  currency: z.string(),
  balance_cents: z.number().int(),
  available_cents: z.number().int().nullable(),
  amount_cents: z.number().int(),
  sufficient: z.boolean(),
});
export const WalletDetails = z.object({
  success: z.boolean(),
  wallet: Wallet,
  totals: z.object({
    credited_cents: z.number().int(),
    debited_cents: z.number().int(),
    charges_cents: z.number().int(),
    refunds_cents: z.number().int(),
    transactions: z.number().int(),
  }),
  outstanding_invoices: z.number().int(),
  outstanding_cents: z.number().int(),
  recent_transactions: z.array(Txn),
});

// Invoices ---------------------------------------------------------------------------------------

export const InvoiceLine = z.object({
  id: z.number().int(),
  transaction: z.number().int(),
  package: z.number().int().nullable(),
  hawb: z.string().nullable(),
  description: z.string(),
  amount_cents: z.number().int(),
});
export type InvoiceLine = z.infer<typeof InvoiceLine>;
export const Invoice = z.object({
  id: z.number().int(),
  number: z.string(),
  company: z.number().int(),
  company_name: z.string(),
  kind: z.enum(INVOICE_KINDS),
  status: z.enum(INVOICE_STATUSES),
  currency: z.string(),
  period_from: z.string().nullable(),
  period_to: z.string().nullable(),
  total_cents: z.number().int(),
  total: z.string(),
  issued_at: z.string(),
  paid_at: z.string().nullable(),
  payment_transaction: z.number().int().nullable(),
  voided_at: z.string().nullable(),
  void_reason: z.string(),
  corrects_invoice: z.number().int().nullable(),
  /** Statements: the last day to pay (issue day + the company's days to pay at issue). */
  due_date: z.string().nullable(),
  /** GST rate (basis points) and whether line amounts include it, fixed at issue. */
  gst_rate_bp: z.number().int(),
  prices_include_gst: z.boolean(),
});
export type Invoice = z.infer<typeof Invoice>;
const GstSplit = z.object({ excl_cents: z.number().int(), gst_cents: z.number().int(), incl_cents: z.number().int() });
/** `gst`: totals of the per-line GST split (shared/gst.ts), as the tax invoice prints them. */
export const InvoiceDetails = Invoice.extend({ lines: z.array(InvoiceLine.extend({ gst: GstSplit })), gst: GstSplit });
export const RechargeAnswer = z.object({ success: z.boolean(), message: z.string(), wallet: Wallet, transaction: Txn, receipt: Invoice });

export const GenerateInvoiceBody = z
  .object({
    company: refId(),
    /** Inclusive UTC days. */
    period_from: z.iso.date(),
    period_to: z.iso.date(),
  })
  .refine((b) => b.period_from <= b.period_to, { message: 'period_to must not be before period_from', path: ['period_to'] });

export const InvoiceQuery = ListQuery.extend({
  company: z.coerce.number().int().positive().optional(),
  kind: z.enum(INVOICE_KINDS).optional(),
  status: z.enum(INVOICE_STATUSES).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
export const InvoiceStatusBody = z.discriminatedUnion('status', [
  z.object({ status: z.literal('paid'), reference: text(120).default(''), note: text(500).default('') }),
  z.object({ status: z.literal('void'), reason: requiredText(500) }),
]);

export const AdjustmentBody = z.object({
  company: refId(),
  direction: z.enum(['credit', 'debit']),
  amount_cents: positiveCents(),
  reason: requiredText(500),
  /** The invoice this corrects, typically a voided one. */
  invoice: refId().optional(),
});
export const Adjustment = z.object({ transaction: Txn, note: Invoice });
export const AdjustmentAnswer = z.object({ success: z.boolean(), message: z.string(), wallet: Wallet, transaction: Txn, note: Invoice });
export const AdjustmentQuery = ListQuery.extend({ company: z.coerce.number().int().positive().optional() });

// Driver earnings --------------------------------------------------------------------------------

export const EarningsQuery = z.object({
  /** Inclusive UTC days; the current month when both are absent. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  /** Staff may ask for any driver; a driver always gets their own. */
  driver: z.coerce.number().int().positive().optional(),
});
const earningFields = {
  currency: z.string().nullable(),
  delivered_count: z.number().int(),
  /** Parcels no driver rate covered: counted, earning nothing. */
  unrated_count: z.number().int(),
  amount_cents: z.number().int(),
};
export const EarningTotals = z.array(z.object(earningFields));
const earningsBase = {
  success: z.boolean(),
  driver: z.number().int(),
  from: z.string(),
  to: z.string(),
  totals: EarningTotals,
};
export const DriverEarning = z.object({ ...earningsBase, days: z.array(z.object({ date: z.string(), ...earningFields })) });
export const RouteEarning = z.object({
  ...earningsBase,
  routes: z.array(z.object({ route: z.number().int().nullable(), route_name: z.string().nullable(), ...earningFields })),
});
export const CompanyEarning = z.object({
  ...earningsBase,
  companies: z.array(z.object({ company: z.number().int().nullable(), company_name: z.string().nullable(), ...earningFields })),
});
