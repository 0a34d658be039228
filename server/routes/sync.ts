import { SyncChanges, SyncChangesQuery, SyncDevice, SyncDeviceQuery } from '../../shared/schemas/sync';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { deviceLastSeq } from '../services/sync/device';
import { changesSince } from '../services/sync/feed';
import { feedScopeOf } from '../services/sync/scope';

export function syncRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/sync/changes/',
      tags: ['Sync'],
      access: 'authenticated',
      catalogue: [],
      query: SyncChangesQuery,
      response: SyncChanges,
      summary: 'Records that entered, changed in or left your scope since a cursor (offline devices)',
      description: [
        '`cursor=0` answers a snapshot of everything in scope; then pass back the `cursor` of each answer until `has_more` is false.',
        'Drivers: their assigned parcels (final ones for 3 days after their last change). Companies: their parcels. Everyone: active failed-delivery statuses.',
        'Records that left the scope (reassigned, archived) are listed in `removes`. `reset: true` (HTTP 200) means the cursor cannot be served: drop every copy and pull from 0.',
      ].join(' '),
    },
    ({ deps, user, query }) => changesSince(deps.db, feedScopeOf(user), query.cursor, query.limit, deps.clock.now(), deps.config.timeZone),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/sync/device/',
      tags: ['Sync'],
      access: 'authenticated',
      catalogue: [],
      query: SyncDeviceQuery,
      response: SyncDevice,
      summary: 'The highest X-Device-Seq this server recorded for one of your devices (restore check)',
      description: [
        'A device compares `last_seq` with the highest seq it saw acknowledged; when the server is behind (restored from a backup),',
        'it re-sends the acknowledged actions after `last_seq` with their original Idempotency-Keys.',
        'A device this server never saw answers `last_seq: 0`; a device last used by another user answers 404.',
      ].join(' '),
    },
    ({ deps, user, query }) => deviceLastSeq(deps.db, user.id, query.device_id),
  );
}
