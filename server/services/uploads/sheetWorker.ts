import { parentPort } from 'node:worker_threads';
import { ApiError } from '../../errors';
import { READERS, type ReaderName, type WorkerAnswer } from './readers';

/**
 * Runs one reader on one file in a worker thread (parser.ts) and answers the sheet or the refusal.
 * The worker starts before a file arrives (a warm spare) and is ended after its one file.
 */
async function read(reader: ReaderName, bytes: Uint8Array): Promise<WorkerAnswer> {
  try {
    return { ok: true, sheet: await READERS[reader](bytes) };
  } catch (err) {
    if (err instanceof ApiError)
      return { ok: false, error: { status: err.status, code: err.code, message: err.message, errors: err.errors, details: err.details } };
    return {
      ok: false,
      error: {
        status: 400,
        code: 'validation_error',
        message: 'The file could not be read',
        errors: [{ path: 'file', message: 'unreadable' }],
      },
    };
  }
}

parentPort?.once('message', (job: { reader: ReaderName; bytes: Uint8Array }) => {
  void read(job.reader, job.bytes).then((answer) => parentPort?.postMessage(answer));
});
parentPort?.postMessage('ready');
