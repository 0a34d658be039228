/** Issue 36: the columns an upload reads, with a sample row, as a CSV a shipper can fill in. */
export const TEMPLATE_COLUMNS = [
  'hawb',
  'customer_name',
  'customer_address',
  'postcode',
  'postcode_name',
  'customer_phone',
  'recipient_email',
  'weight',
  'length',
  'width',
  'height',
  'count',
  'description_of_goods',
  'delivery_date',
  'window_start',
  'window_end',
  'cod_amount_cents',
  'proof_requirements',
] as const;
const SAMPLE: Record<(typeof TEMPLATE_COLUMNS)[number], string> = {
  hawb: 'ABC123456',
  customer_name: 'Rita Recipient',
  customer_address: '12 Campbell Pde',
  postcode: '2026',
  postcode_name: 'Bondi Beach',
  customer_phone: '0417 123 456',
  recipient_email: 'rita@example.com',
  weight: '1.5',
  length: '30',
  width: '20',
  height: '10',
  count: '1',
  description_of_goods: 'Books',
  delivery_date: '',
  window_start: '09:00',
  window_end: '12:00',
  cod_amount_cents: '',
  proof_requirements: 'signature',
};

export function templateCsv(): string {
  return `${TEMPLATE_COLUMNS.join(',')}\r\n${TEMPLATE_COLUMNS.map((c) => SAMPLE[c]).join(',')}\r\n`;
}

export function downloadTemplate(): void {
  const url = URL.createObjectURL(new Blob([templateCsv()], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'packages-template.csv';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
