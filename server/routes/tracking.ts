import { allowedTransitions, isFinal, PACKAGE_STATUSES, STATUS_LABELS } from '../../shared/lifecycle';
import { StatusListAnswer, TrackingAnswer, TrackParams } from '../../shared/schemas/delivery';
import { clientIp } from '../http/client';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { trackingHtml, trackParcel } from '../services/packages/tracking';

const tags = ['Delivery Status Manage Model'];

export function trackingRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/delivery-status/',
      tags,
      access: 'authenticated',
      response: StatusListAnswer,
      catalogue: ops('web/Delivery Status Manage Model', 'List'),
      summary: 'The package statuses with their labels, whether final, and where each may go next',
    },
    ({ deps }) => ({
      count: PACKAGE_STATUSES.length,
      results: PACKAGE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s], final: isFinal(s), next: [...allowedTransitions(s)] })),
      max_attempts: deps.config.maxAttempts,
    }),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/track/{hawb}/',
      tags,
      access: 'public',
      params: TrackParams,
      response: TrackingAnswer,
      catalogue: ops('web/Delivery Status Manage Model', 'Package Tracking'),
      summary: 'Public tracking by tracking number (hawb): states, times and the destination suburb only',
      description:
        'No names, phones, photos or notes. Limited per address (30 a minute, then 429 with Retry-After). The same answer as a small HTML page: track/{hawb}/page/.',
    },
    ({ deps, params, c }) => trackParcel(deps, params.hawb, clientIp(c, deps.config)),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/track/{hawb}/page/',
      tags,
      access: 'public',
      params: TrackParams,
      catalogue: [],
      produces: 'text/html',
      summary: 'Public tracking page a recipient can open from a text message',
    },
    async ({ deps, params, c }) => {
      c.header('Cache-Control', 'no-store');
      return c.html(trackingHtml(await trackParcel(deps, params.hawb, clientIp(c, deps.config))));
    },
  );
}
