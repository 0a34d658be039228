import { stringify } from 'csv-stringify/sync';
import PDFDocument from 'pdfkit';
import { csvSafe } from '../../../shared/csvSafe';
import { formatAbn, gstForLines } from '../../../shared/gst';
import { formatMinor, toMajor } from '../../../shared/money';
import type { Invoice, InvoiceLine } from '../../../shared/schemas/money';
import type { BusinessProfileRow } from './businessProfile';
import { daysBetween, localDay } from '../../../shared/time/zone';

const KIND_TITLE: Record<Invoice['kind'], string> = { statement: 'Tax invoice', receipt: 'Receipt', adjustment: 'Adjustment note' };

/** The seller's block: the business profile's printed fields. */
export type SellerBlock = Omit<BusinessProfileRow, 'id' | 'updated_at' | 'gst_rate_bp' | 'prices_include_gst'>;
/** The buyer's block: the company billed. */
export interface BuyerBlock {
  name: string;
  abn: string | null;
  address: string | null;
}
/** What the PDF says beyond the invoice itself: who sells and who is billed, as at issue. */
export interface InvoiceParties {
  seller: SellerBlock;
  buyer: BuyerBlock;
}

/** The rounding rule, printed on every document that shows GST (see shared/gst.ts). */
export const GST_ROUNDING_RULE = 'GST is calculated on each line and rounded half-up to the cent; totals are the sums of the lines.';

/**
 * One invoice as a PDF. A statement is an Australian tax invoice: the words "Tax invoice", the seller's
 * legal name, ABN and address, the buyer's name and ABN, number, issue and due dates, each line with its
 * amount excluding GST, the GST and the total, GST totals, the rounding rule and how to pay.
 * Its dates are the business's local days in `zone` (issue 31), like the period and due date it was given.
 */
export function invoicePdf(inv: Invoice, lines: InvoiceLine[], ctx: InvoiceParties, zone: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const { seller, buyer: co } = ctx;
    const title = KIND_TITLE[inv.kind];
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      info: { Title: `${title} ${inv.number}`, Author: seller.legal_name || 'Courier' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    const amount = (cents: number) => formatMinor(cents, inv.currency);
    const left = doc.page.margins.left;
    const right = doc.page.width - doc.page.margins.right;
    const fullWidth = right - left;

    // Seller block: who issues the document.
    doc.fontSize(20).font('Helvetica-Bold').text(title.toUpperCase(), left, 50);
    doc
      .fontSize(10)
      .font('Helvetica-Bold')
      .text(seller.legal_name || '(business legal name not set)');
    doc.font('Helvetica');
    if (seller.trading_name && seller.trading_name !== seller.legal_name) doc.text(`Trading as ${seller.trading_name}`);
    doc.text(seller.abn ? `ABN ${formatAbn(seller.abn)}` : 'ABN not set');
    if (seller.address) doc.text(seller.address);
    const contact = [seller.email, seller.phone].filter(Boolean).join('   ');
    if (contact) doc.text(contact);
    const sellerEnd = doc.y;

    // Document facts on the right, buyer below.
    const issued = localDay(Date.parse(inv.issued_at), zone);
    const facts: [string, string][] = [
      [`${title} number`, inv.number],
      ['Issue date', issued],
    ];
    if (inv.due_date) facts.push(['Due date', `${inv.due_date} (${daysBetween(issued, inv.due_date)} days)`]);
    if (inv.period_from && inv.period_to) facts.push(['Period', `${inv.period_from} to ${inv.period_to}`]);
    facts.push(['Status', inv.status.toUpperCase()], ['Currency', inv.currency]);
    let fy = 50;
    for (const [k, v] of facts) {
      doc
        .fontSize(10)
        .font('Helvetica-Bold')
        .text(`${k}: `, 330, fy, { continued: true, width: right - 330 })
        .font('Helvetica')
        .text(v);
      fy = doc.y;
    }
    doc.y = Math.max(sellerEnd, fy) + 14;
    doc.font('Helvetica-Bold').text('Bill to', left, doc.y).font('Helvetica').text(co.name);
    if (co.abn) doc.text(`ABN ${formatAbn(co.abn)}`);
    if (co.address) doc.text(co.address);
    if (inv.status === 'void')
      doc
        .moveDown(0.5)
        .fillColor('red')
        .text(`VOID ${inv.voided_at ? localDay(Date.parse(inv.voided_at), zone) : ''}: ${inv.void_reason}`)
        .fillColor('black');
    doc.moveDown();

    const withGst = inv.kind !== 'receipt';
    // The rate and inclusive flag recorded at issue, not today's profile: an issued tax invoice never changes.
    const gst = gstForLines(
      lines.map((l) => l.amount_cents),
      inv.gst_rate_bp,
      inv.prices_include_gst,
    );
    const colW = 80;
    const cols = withGst ? [right - 3 * colW, right - 2 * colW, right - colW] : [right - colW];
    const descW = cols[0] - left - 10;
    const header = withGst ? ['Excl. GST', 'GST', 'Total'] : ['Amount'];
    const row = (desc: string, cells: string[], bold = false) => {
      if (doc.y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
      const y = doc.y + 3;
      doc
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(10)
        .text(desc, left, y, { width: descW });
      const after = doc.y;
      cells.forEach((c, i) => doc.text(c, cols[i], y, { width: colW, align: 'right' }));
      doc.y = Math.max(after, doc.y);
    };
    row('Description', header, true);
    doc
      .moveTo(left, doc.y + 1)
      .lineTo(right, doc.y + 1)
      .stroke();
    doc.y += 4;
    lines.forEach((line, i) => {
      const g = gst.lines[i];
      row(line.description, withGst ? [amount(g.excl_cents), amount(g.gst_cents), amount(g.incl_cents)] : [amount(line.amount_cents)]);
    });
    doc
      .moveTo(left, doc.y + 3)
      .lineTo(right, doc.y + 3)
      .stroke();
    doc.moveDown(0.5);
    if (withGst) {
      row('Totals', [amount(gst.total.excl_cents), amount(gst.total.gst_cents), amount(gst.total.incl_cents)], true);
      doc.moveDown(0.5);
      const rate = `${inv.gst_rate_bp / 100}%`;
      doc
        .fontSize(10)
        .font('Helvetica')
        .text(`Total excluding GST: ${amount(gst.total.excl_cents)} ${inv.currency}`, left, doc.y, { align: 'right', width: fullWidth })
        .text(`GST (${rate}): ${amount(gst.total.gst_cents)} ${inv.currency}`, { align: 'right', width: fullWidth })
        .font('Helvetica-Bold')
        .fontSize(12)
        .text(
          `${inv.kind === 'statement' ? 'Total amount payable' : 'Total adjustment'} (incl. GST): ${amount(gst.total.incl_cents)} ${inv.currency}`,
          { align: 'right', width: fullWidth },
        );
      doc
        .font('Helvetica')
        .fontSize(8)
        .moveDown(0.5)
        .text(
          `All services are taxable supplies. ${inv.prices_include_gst ? 'Prices include GST.' : 'GST is added to the prices.'} ${GST_ROUNDING_RULE}`,
          left,
          doc.y,
          { width: fullWidth },
        );
    } else {
      doc
        .fontSize(12)
        .font('Helvetica-Bold')
        .text(`Total received: ${amount(inv.total_cents)} ${inv.currency}`, left, doc.y, { align: 'right', width: fullWidth });
    }

    if (inv.kind === 'statement') {
      doc.moveDown().fontSize(10).font('Helvetica-Bold').text('How to pay', left, doc.y).font('Helvetica');
      const bank = seller.bank_bsb && seller.bank_account_number;
      if (bank) {
        doc
          .text(`Account name: ${seller.bank_account_name || seller.legal_name}`)
          .text(`BSB: ${seller.bank_bsb.slice(0, 3)}-${seller.bank_bsb.slice(3)}    Account: ${seller.bank_account_number}`)
          .text(`Reference: ${inv.number}`);
      }
      if (seller.payment_instructions) doc.text(seller.payment_instructions);
      if (!bank && !seller.payment_instructions) doc.text('Payment details not set; contact us.');
    }
    doc
      .moveDown()
      .fontSize(8)
      .font('Helvetica')
      .text('This document never changes after issue; corrections are issued as adjustment notes.', left, doc.y, { width: fullWidth });
    doc.end();
  });
}

export const INVOICE_CSV_COLUMNS = [
  'number',
  'company',
  'company_name',
  'kind',
  'status',
  'currency',
  'total',
  'total_cents',
  'period_from',
  'period_to',
  'issued_at',
  'paid_at',
  'voided_at',
  'void_reason',
] as const;

/** Invoices as CSV; every text cell is formula-safe, amounts stay numbers. */
export function invoicesCsv(invoices: Invoice[]): string {
  const rows = invoices.map((i) =>
    INVOICE_CSV_COLUMNS.map((c) => {
      if (c === 'total') return csvSafe(toMajor(i.total_cents, i.currency));
      return csvSafe(i[c]);
    }),
  );
  return stringify([[...INVOICE_CSV_COLUMNS], ...rows]);
}
