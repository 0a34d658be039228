import { stringify } from 'csv-stringify/sync';
import PDFDocument from 'pdfkit';
import { csvSafe } from '../../../shared/csvSafe';
import { formatMinor, toMajor } from '../../../shared/money';
import type { Invoice, InvoiceLine } from '../../../shared/schemas/money';
import type { CompanyRow } from './wallets';

const KIND_TITLE: Record<Invoice['kind'], string> = { statement: 'Tax invoice', receipt: 'Receipt', adjustment: 'Adjustment note' };

/** One invoice as a PDF: header, company, period, one row per line, total and status. */
export function invoicePdf(inv: Invoice, lines: InvoiceLine[], co: CompanyRow): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${KIND_TITLE[inv.kind]} ${inv.number}`, Author: 'Courier' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    const money = (cents: number) => `${formatMinor(cents, inv.currency)} ${inv.currency}`;

    doc.fontSize(20).text(`${KIND_TITLE[inv.kind]} ${inv.number}`);
    doc.moveDown(0.5).fontSize(10)
      .text(`Issued: ${inv.issued_at.slice(0, 10)}    Status: ${inv.status.toUpperCase()}`)
      .text(`Bill to: ${co.name}${co.abn ? `  (ABN ${co.abn})` : ''}`)
      .text(co.address || ' ');
    if (inv.period_from && inv.period_to) doc.text(`Period: ${inv.period_from} to ${inv.period_to}`);
    if (inv.status === 'void') doc.fillColor('red').text(`VOID ${inv.voided_at?.slice(0, 10) ?? ''}: ${inv.void_reason}`).fillColor('black');
    doc.moveDown();

    const left = doc.page.margins.left;
    const amountX = doc.page.width - doc.page.margins.right - 120;
    doc.fontSize(10).text('Description', left, doc.y, { continued: false });
    for (const line of lines) {
      const y = doc.y + 4;
      doc.text(line.description, left, y, { width: amountX - left - 10 });
      const after = doc.y;
      doc.text(money(line.amount_cents), amountX, y, { width: 120, align: 'right' });
      doc.y = Math.max(after, doc.y);
    }
    doc.moveDown();
    doc.fontSize(12).text(`Total: ${money(inv.total_cents)}`, left, doc.y, { align: 'right' });
    doc.moveDown().fontSize(8).text('Amounts include any applicable tax. This document never changes after issue; corrections are issued as adjustment notes.', left);
    doc.end();
  });
}

export const INVOICE_CSV_COLUMNS = [
  'number', 'company', 'company_name', 'kind', 'status', 'currency', 'total', 'total_cents', 'period_from', 'period_to',
  'issued_at', 'paid_at', 'voided_at', 'void_reason',
] as const;

/** Invoices as CSV; every text cell is formula-safe, amounts stay numbers. */
export function invoicesCsv(invoices: Invoice[]): string {
  const rows = invoices.map((i) => INVOICE_CSV_COLUMNS.map((c) => {
    if (c === 'total') return csvSafe(toMajor(i.total_cents, i.currency));
    return csvSafe(i[c]);
  }));
  return stringify([[...INVOICE_CSV_COLUMNS], ...rows]);
}
