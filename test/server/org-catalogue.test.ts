import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../server/http/catalogue';
import type { AppEnv } from '../../server/http/env';
import { registerRoutes } from '../../server/routes/index';

const GROUPS = [
  'web/Company/',
  'web/Employee/',
  'web/Warehouse/',
  'web/Pickup Point/',
  'web/Group Permission/',
  'web/Profile Update/',
  'mobile/Profile/',
  'web/Driver Support/',
  'web/Webhook Secret Key/',
];

describe('organisation catalogue', () => {
  it('serves every operation of the organisation groups (Company Report aside)', () => {
    const api = new OpenAPIHono<AppEnv>();
    registerRoutes(api);
    const served = new Set<string>();
    for (const def of api.openAPIRegistry.definitions) {
      if (def.type !== 'route') continue;
      const ids = (def.route as { 'x-catalogue'?: string[] })['x-catalogue'] ?? [];
      ids.forEach((id) => served.add(id));
    }
    const wanted = [...catalogue().keys()].filter(
      (id) => GROUPS.some((g) => id.startsWith(g)) && !id.startsWith('web/Company/Company Report/'),
    );
    expect(wanted.length).toBeGreaterThan(60);
    expect(wanted.filter((id) => !served.has(id))).toEqual([]);
  });
});
