import { z } from 'zod';
import { IdParams } from '../../../shared/schemas/common';
import { DriverSkills, DriverSkillsBody, PlanSettings } from '../../../shared/schemas/dispatch';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { planSettings, setPlanSettings } from '../../services/dispatch/settings';
import { listDriverSkills, setDriverSkills } from '../../services/dispatch/skills';

const tags = ['Dispatch'];

/** What every plan starts from (issue 32): the office's rates, break, limits and balance, and drivers' skills. */
export function dispatchSettingRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/dispatch/settings/',
      tags,
      access: 'route.view',
      catalogue: [],
      response: PlanSettings,
      summary: "The office's plan settings: costs, the default break, route limits and balance (a plan request's own fields win)",
    },
    ({ deps }) => planSettings(deps.db),
  );

  defineRoute(
    app,
    {
      method: 'put',
      path: '/dispatch/settings/',
      tags,
      access: 'route.manage',
      catalogue: [],
      body: PlanSettings,
      response: PlanSettings,
      summary: 'Replaces the plan settings; an audit line records what changed',
    },
    ({ deps, user, body }) => setPlanSettings(deps.db, deps.clock.now(), user.id, body),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dispatch/driver-skills/',
      tags,
      access: 'route.view',
      catalogue: [],
      response: z.object({ results: z.array(DriverSkills) }),
      summary: 'Every driver with the skills they bring to any van (ID-check trained, dangerous goods...)',
    },
    async ({ deps }) => ({ results: await listDriverSkills(deps.db) }),
  );

  defineRoute(
    app,
    {
      method: 'put',
      path: '/dispatch/driver-skills/{id}/',
      tags,
      access: 'route.manage',
      catalogue: [],
      params: IdParams,
      body: DriverSkillsBody,
      response: DriverSkills,
      summary: "Sets a driver's skills; an empty list clears them",
    },
    ({ deps, params, body }) => setDriverSkills(deps.db, deps.clock.now(), params.id, body),
  );
}
