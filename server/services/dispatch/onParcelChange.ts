import type { Deps } from '../../deps';
import type { ParcelSubscriber } from '../packages/changes';
import { startRouteWorked } from '../routes/live';
import { refreshParcelRouteEtas } from './eta';

/** A stop worked (delivered or failed, however it was done): the rest of its route moves (issue 16). */
export const etaSubscriber = (deps: Deps): ParcelSubscriber => ({
  name: 'etas',
  async receive({ after, to, actor }) {
    if (to !== 'delivered' && to !== 'failed') return;
    // The route's own driver working a stop means the route is under way, whether or not the van was scanned.
    if (actor.userId != null && after.route_id != null) await startRouteWorked(deps, actor.userId, after.route_id);
    await refreshParcelRouteEtas(deps, after.id);
  },
});
