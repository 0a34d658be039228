import { Badge, type Tone } from '../../ui/Badge';
import type { InvoiceT } from './types';

const TONE: Record<InvoiceT['status'], Tone> = { issued: 'warn', paid: 'ok', void: 'muted' };
const LABEL: Record<InvoiceT['status'], string> = { issued: 'Issued', paid: 'Paid', void: 'Void' };

export function InvoiceStatusBadge({ status }: { status: InvoiceT['status'] }) {
  return <Badge tone={TONE[status]}>{LABEL[status]}</Badge>;
}
