import type { Db } from '../../db/client';

/** An expected arrival window, epoch ms. */
export interface EtaWindow { from: number; to: number }

/**
 * The ETA window of a parcel on today's planned route, or null when unknown. Planned routes with
 * per-stop ETAs are another piece of work (the dispatch branch); until that lands every parcel's
 * window is unknown and the messages say only "on its way". The one place to wire it up: read the
 * stop's planned arrival for `packageId` here.
 */
export function etaWindowFor(_db: Db, _packageId: number): EtaWindow | null {
  return null;
}
