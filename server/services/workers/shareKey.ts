import type { SessionUser } from '../auth/session';

/** Whose fair share of a worker queue a request uses: its company's, or for staff their own. */
export const shareKey = (actor: Pick<SessionUser, 'id' | 'companyId'>) =>
  actor.companyId != null ? `company:${actor.companyId}` : `user:${actor.id}`;
