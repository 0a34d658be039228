import { Worker } from 'node:worker_threads';
import { ApiError } from '../../errors';
import { tooLarge } from './limits';
import type { ReaderName, SheetOf, WorkerAnswer } from './readers';

/**
 * Spreadsheets and CSV files are parsed off the request thread: each in its own short-lived worker
 * thread with a heap cap and a time limit, so a hostile or huge file costs one worker, never the
 * answers of other users, and its memory goes with the worker when it ends. At most `concurrency`
 * files are read at once; more answer 503 with Retry-After instead of queueing without bound.
 */
export interface SheetParser {
  parse<K extends ReaderName>(reader: K, bytes: Uint8Array): Promise<SheetOf<K>>;
  /** Files being read now. */
  readonly busy: number;
}

export interface SheetParserOptions {
  concurrency?: number;
  timeoutMs?: number;
  /** V8 old-generation cap of each worker. */
  memoryMb?: number;
}

export const PARSE_RETRY_AFTER_S = 5;
const SPARE_IDLE_MS = 30_000;
const BOOTSTRAP = new URL('./tsWorker.mjs', import.meta.url);
const ENTRY = new URL('./sheetWorker.ts', import.meta.url).href;

export function createSheetParser(options: SheetParserOptions = {}): SheetParser {
  const concurrency = options.concurrency ?? 2;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const memoryMb = options.memoryMb ?? 256;
  let busy = 0;

  // One worker started ahead, so a file does not wait for a thread (and tsx) to boot; each worker
  // reads one file and is ended, which is what gives its memory back.
  let spare: Worker | null = null;
  let idle: NodeJS.Timeout | null = null;
  const spawn = () => {
    const worker = new Worker(BOOTSTRAP, {
      workerData: { entry: ENTRY },
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 32 },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    // A spare that dies idle (it should not) is simply replaced at the next file.
    worker.once('exit', () => {
      if (spare === worker) spare = null;
    });
    worker.on('error', () => undefined);
    return worker;
  };
  const take = () => {
    const worker = spare ?? spawn();
    spare = spawn();
    // A spare nobody needed for a while is ended: an idle server holds no extra thread.
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      const s = spare;
      spare = null;
      void s?.terminate();
    }, SPARE_IDLE_MS);
    idle.unref();
    return worker;
  };

  function run(reader: ReaderName, bytes: Uint8Array): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const worker = take();
      worker.ref();
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.removeAllListeners('message');
        fn();
        // The worker's whole heap goes with it.
        void worker.terminate();
      };
      const timer = setTimeout(
        () => finish(() => reject(tooLarge('The file took too long to read; split it into smaller files'))),
        timeoutMs,
      );
      worker.on('message', (answer: WorkerAnswer | 'ready') => {
        if (answer === 'ready') return;
        finish(() => {
          if (answer.ok) resolve(answer.sheet);
          else
            reject(new ApiError(answer.error.status, answer.error.code, answer.error.message, answer.error.errors, answer.error.details));
        });
      });
      worker.on('error', (err: Error & { code?: string }) =>
        finish(() => {
          reject(
            err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooLarge('The file needs more memory to read than an upload may use; split it') : err,
          );
        }),
      );
      worker.once('exit', () => finish(() => reject(new Error('the upload reader stopped without an answer'))));
      // Posted at once: a worker still booting gets it when its listener is in place.
      worker.postMessage({ reader, bytes });
    });
  }

  return {
    get busy() {
      return busy;
    },
    async parse(reader, bytes) {
      if (busy >= concurrency) {
        throw new ApiError(503, 'service_unavailable', 'Other files are being read right now; send this one again in a few seconds', [], {
          retry_after: PARSE_RETRY_AFTER_S,
        });
      }
      busy += 1;
      try {
        return (await run(reader, bytes)) as SheetOf<typeof reader>;
      } finally {
        busy -= 1;
      }
    },
  };
}
