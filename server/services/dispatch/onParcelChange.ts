import type { Deps } from '../../deps';
import type { ParcelSubscriber } from '../packages/changes';
import { refreshParcelRouteEtas } from './eta';

/** A stop worked (delivered or failed, however it was done): the rest of its route moves (issue 16). */
export const etaSubscriber = (deps: Deps): ParcelSubscriber => ({
  name: 'etas',
  async receive({ after, to }) {
    if (to === 'delivered' || to === 'failed') await refreshParcelRouteEtas(deps, after.id);
  },
});
