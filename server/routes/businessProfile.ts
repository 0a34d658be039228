import { ADMIN_ROLES } from '../../shared/roles';
import { BusinessProfile, BusinessProfileUpdate } from '../../shared/schemas/business';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { audit } from '../services/audit/record';
import { getBusinessProfile, setBusinessProfile, shapeBusinessProfile } from '../services/money/businessProfile';

const tags = ['Business profile'];

/** Issue 18: the courier's own legal details, payment details and GST settings, printed on tax invoices. */
export function businessProfileRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/settings/business-profile/',
      tags,
      access: { roles: ADMIN_ROLES },
      catalogue: [],
      response: BusinessProfile,
      summary: "The courier's business profile (seller on tax invoices)",
    },
    async ({ deps }) => shapeBusinessProfile(await getBusinessProfile(deps.db), deps.config.timeZone),
  );

  defineRoute(
    app,
    {
      method: 'patch',
      path: '/settings/business-profile/',
      tags,
      access: { roles: ADMIN_ROLES },
      catalogue: [],
      body: BusinessProfileUpdate,
      response: BusinessProfile,
      summary: 'Change the business profile (admins); audited before -> after',
      description:
        "ABN is checked with the ABR checksum; `gst_rate_bp` is basis points (1000 = 10 %). Issued invoices are re-rendered with the current profile. `time_zone` (IANA name, null = the configured `TIME_ZONE`) is the zone of the business's days, shifts, windows and messages; a depot may have its own (`PUT warehouse/{id}/time-zone/`).",
    },
    async ({ deps, user, body }) => {
      const now = deps.clock.now();
      const { before, after } = await setBusinessProfile(deps.db, now, body);
      await audit(deps.db, now, user.id, 'settings.business_profile', 'business_profile:1', {
        before: shapeBusinessProfile(before, deps.config.timeZone),
        after: shapeBusinessProfile(after, deps.config.timeZone),
      });
      return shapeBusinessProfile(after, deps.config.timeZone);
    },
  );
}
