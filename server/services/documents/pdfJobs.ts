import type { Package } from '../../../shared/schemas/package';
import type { Invoice, InvoiceLine } from '../../../shared/schemas/money';
import type { InvoiceParties } from '../money/documents';
import type { LabelLayout, LabelParcel, ManifestInfo } from '../labels/pdf';

/** A PDF to draw in the document worker: plain data in, the file's bytes out. */
export type PdfJob =
  | {
      kind: 'labels';
      parcels: LabelParcel[];
      layout: LabelLayout;
      /** The courier's trading name, printed beside the shipper's (issue 36). */ courier?: string;
      /** What each parcel needs at the door (issue 34), by id. */ door?: Record<number, string>;
    }
  | { kind: 'manifest'; info: ManifestInfo; parcels: Package[] }
  | { kind: 'invoice'; invoice: Invoice; lines: InvoiceLine[]; parties: InvoiceParties; zone: string };

export type PdfAnswer = { ok: true; bytes: Uint8Array } | { ok: false; message: string };
