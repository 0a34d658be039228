import { parentPort } from 'node:worker_threads';
import { labelsPdf, manifestPdf } from '../labels/pdf';
import { invoicePdf } from '../money/documents';
import type { PdfAnswer, PdfJob } from './pdfJobs';

/**
 * Draws one PDF in a worker thread (renderer.ts) and answers its bytes. pdfkit and the barcode
 * images are synchronous work proportional to the pages: on the request thread, 990 labels held
 * every other request for 8-36 s (security issue 30).
 */
function draw(job: PdfJob): Promise<Uint8Array> {
  switch (job.kind) {
    case 'labels':
      return labelsPdf(job.parcels, job.layout, job.courier, job.door);
    case 'manifest':
      return manifestPdf(job.info, job.parcels);
    case 'invoice':
      return invoicePdf(job.invoice, job.lines, job.parties, job.zone);
  }
}

parentPort?.once('message', (job: PdfJob) => {
  draw(job).then(
    (bytes) => parentPort?.postMessage({ ok: true, bytes } satisfies PdfAnswer, [bytes.buffer as ArrayBuffer]),
    (err: unknown) => parentPort?.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) } satisfies PdfAnswer),
  );
});
