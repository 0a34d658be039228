import { Worker } from 'node:worker_threads';
import { ApiError } from '../../errors';
import { createFairQueue } from '../workers/fairQueue';
import type { PdfAnswer, PdfJob } from './pdfJobs';

/**
 * PDFs (labels, manifests, invoices) are drawn off the request thread: each in a short-lived
 * worker thread with a heap cap and a time limit, behind a bounded queue that serves companies in
 * turn (workers/fairQueue.ts). A full queue answers 503 with Retry-After; a PDF not drawn in time
 * answers 503 too and its worker is stopped. One renderer per app (deps.pdfs).
 */
export interface PdfRenderer {
  /** `key`: whose share of the queue (a company, or a staff member). */
  render(job: PdfJob, key: string): Promise<Uint8Array<ArrayBuffer>>;
  readonly running: number;
  readonly queued: number;
}

export interface PdfRendererOptions {
  concurrency?: number;
  maxQueued?: number;
  maxQueuedPerKey?: number;
  timeoutMs?: number;
  memoryMb?: number;
}

const BOOTSTRAP = new URL('../uploads/tsWorker.mjs', import.meta.url);
const ENTRY = new URL('./pdfWorker.ts', import.meta.url).href;

export function createPdfRenderer(options: PdfRendererOptions = {}): PdfRenderer {
  const queue = createFairQueue({
    concurrency: options.concurrency ?? 2,
    maxQueued: options.maxQueued ?? 16,
    maxQueuedPerKey: options.maxQueuedPerKey ?? 4,
    busyMessage: 'Other documents are being drawn right now; ask again in a few seconds',
  });
  const timeoutMs = options.timeoutMs ?? 60_000;
  const memoryMb = options.memoryMb ?? 256;

  // One worker started ahead, as the upload parser does: booting tsx and pdfkit in a thread takes
  // seconds on a busy machine. Each worker draws one PDF and is ended (its heap goes with it); a
  // spare nobody needed for 30 s is ended too, so an idle server holds no extra thread.
  let spare: Worker | null = null;
  let idle: NodeJS.Timeout | null = null;
  const spawn = () => {
    const w = new Worker(BOOTSTRAP, {
      workerData: { entry: ENTRY },
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 32 },
      stdout: false,
      stderr: false,
    });
    w.unref();
    w.once('exit', () => {
      if (spare === w) spare = null;
    });
    w.on('error', () => undefined);
    return w;
  };
  const take = () => {
    const w = spare ?? spawn();
    spare = spawn();
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      const s = spare;
      spare = null;
      void s?.terminate();
    }, 30_000);
    idle.unref();
    w.ref();
    return w;
  };

  const draw = (job: PdfJob) =>
    new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
      const worker = take();
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
        void worker.terminate();
      };
      const busy = (message: string) => new ApiError(503, 'service_unavailable', message, [], { retry_after: 5 });
      const timer = setTimeout(() => finish(() => reject(busy('The document took too long to draw; ask for fewer pages'))), timeoutMs);
      worker.once('message', (answer: PdfAnswer) =>
        finish(() => {
          if (answer.ok) resolve(new Uint8Array(answer.bytes.buffer as ArrayBuffer, answer.bytes.byteOffset, answer.bytes.byteLength));
          else reject(new Error(`the document could not be drawn: ${answer.message}`));
        }),
      );
      worker.once('error', (err: Error & { code?: string }) =>
        finish(() => {
          reject(
            err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? busy('The document needs more memory than one may use; ask for fewer pages') : err,
          );
        }),
      );
      worker.once('exit', () => finish(() => reject(new Error('the document worker stopped without an answer'))));
      worker.postMessage(job);
    });

  return {
    get running() {
      return queue.running;
    },
    get queued() {
      return queue.queued;
    },
    render: (job, key) => queue.run(key, () => draw(job)),
  };
}
