import { SyncChanges, SyncChangesQuery } from '../../shared/schemas/sync';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { changesSince } from '../services/sync/feed';
import { feedScopeOf } from '../services/sync/scope';

export function syncRoutes(app: App): void {
  defineRoute(app, {
    method: 'get', path: '/sync/changes/', tags: ['Sync'], access: 'authenticated', catalogue: [],
    query: SyncChangesQuery, response: SyncChanges,
    summary: 'Records that entered, changed in or left your scope since a cursor (offline devices)',
    description: [
      '`cursor=0` answers a snapshot of everything in scope; then pass back the `cursor` of each answer until `has_more` is false.',
      'Drivers: their assigned parcels (final ones for 3 days after their last change). Companies: their parcels. Everyone: active failed-delivery statuses.',
      'Records that left the scope (reassigned, archived) are listed in `removes`. `reset: true` (HTTP 200) means the cursor cannot be served: drop every copy and pull from 0.',
    ].join(' '),
  }, ({ deps, user, query }) => changesSince(deps.db, feedScopeOf(user), query.cursor, query.limit, deps.clock.now()));
}
