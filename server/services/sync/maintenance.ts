import type { Deps } from '../../deps';
import { pruneAnswers } from '../../http/idempotency';
import { pruneThrottle } from '../../http/sharedRateLimit';
import { pruneChanges } from './feed';

/** A device offline longer than this re-pulls everything instead of reading the feed. */
export const CHANGE_RETENTION_MS = 90 * 24 * 3600_000;

export interface MaintenanceResult {
  answersPruned: number;
  changesPruned: number;
  throttlePruned: number;
}

/**
 * Housekeeping the server runs on a timer (server/main.ts): Idempotency-Keys past their retention
 * (each device's last seq is kept forever), change-feed rows no device should still need, and
 * throttle rows (PostgreSQL's shared limiter) that no longer refuse or remember anything.
 */
export async function runSyncMaintenance(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<MaintenanceResult> {
  const now = deps.clock.now();
  return {
    answersPruned: await pruneAnswers(deps.db, now - deps.config.idempotencyRetentionMs),
    changesPruned: await pruneChanges(deps.db, now - Math.max(CHANGE_RETENTION_MS, deps.config.idempotencyRetentionMs)),
    throttlePruned: await pruneThrottle(deps.db, now),
  };
}
