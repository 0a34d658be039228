import type { Deps } from '../../deps';
import { pruneAnswers } from '../../http/idempotency';
import { pruneChanges } from './feed';

/** A device offline longer than this re-pulls everything instead of reading the feed. */
export const CHANGE_RETENTION_MS = 90 * 24 * 3600_000;

export interface MaintenanceResult { answersPruned: number; changesPruned: number }

/**
 * Housekeeping the server runs on a timer (server/main.ts): Idempotency-Keys past their retention
 * (each device's last seq is kept forever) and change-feed rows no device should still need.
 */
export function runSyncMaintenance(deps: Pick<Deps, 'db' | 'clock' | 'config'>): MaintenanceResult {
  const now = deps.clock.now();
  return {
    answersPruned: pruneAnswers(deps.db, now - deps.config.idempotencyRetentionMs),
    changesPruned: pruneChanges(deps.db, now - Math.max(CHANGE_RETENTION_MS, deps.config.idempotencyRetentionMs)),
  };
}
