import type { ErrorCode, ErrorDetail } from '../../../shared/errors';
import type { ErrorStatus } from '../../errors';
import { readSheet } from '../geo/upload/sheet';
import { readCsv, readXlsx } from '../packages/sheet';

/** The file readers that run in the upload worker (sheetWorker.ts), by name: functions cannot cross threads. */
export const READERS = {
  'package-csv': readCsv,
  'package-xlsx': readXlsx,
  'geo-sheet': readSheet,
} as const;

export type ReaderName = keyof typeof READERS;
export type SheetOf<K extends ReaderName> = Awaited<ReturnType<(typeof READERS)[K]>>;

export interface SerializedError {
  status: ErrorStatus;
  code: ErrorCode;
  message: string;
  errors: ErrorDetail[];
  details?: Record<string, unknown>;
}
export type WorkerAnswer = { ok: true; sheet: unknown } | { ok: false; error: SerializedError };
