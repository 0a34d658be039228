import type { Db } from '../../db/client';
import { etaFor } from '../dispatch/eta';

/** An expected arrival window, epoch ms. */
export interface EtaWindow {
  from: number;
  to: number;
}

/**
 * The window to tell a recipient ("arriving 14:10–14:40"): the planned stop's ETA band from the
 * dispatch service, or null when the parcel is on no live planned route (then messages say only
 * "on its way" and the page shows no window).
 */
export async function etaWindowFor(db: Db, packageId: number): Promise<EtaWindow | null> {
  const eta = await etaFor(db, packageId);
  if (!eta?.from || !eta.to) return null;
  const from = Date.parse(eta.from);
  const to = Date.parse(eta.to);
  return Number.isFinite(from) && Number.isFinite(to) ? { from, to } : null;
}
