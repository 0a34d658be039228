import { IdParams } from '../../../shared/schemas/common';
import { PickupQrQuery } from '../../../shared/schemas/org';
import { forbidden } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { findPickupPoint } from '../../services/org/pickupPoints';
import { pickupPointCode, renderQr } from '../../services/org/pickupQr';

export function pickupQrRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/pickup-point/{id}/qr-code/',
      tags: ['Pickup point'],
      access: 'pickup_point.view',
      catalogue: ops('web/Pickup Point', 'QR Code'),
      params: IdParams,
      query: PickupQrQuery,
      produces: 'image/png',
      summary: 'QR code to print at a pickup point (PNG or SVG)',
      description:
        'Encodes `COURIER-PP:<id>:<8 hex of an HMAC the server keeps>`, which the driver app scans. Drivers are refused (403): the code proves they stand at the point. `?format=png|svg`, `?size=64..2048`. The code is sent in `X-QR-Text` too.',
    },
    async ({ deps, user, params, query, c }) => {
      // The code is what proves a driver stands at the point (pickup-point-scan): a driver gets it only by scanning it there.
      if (user.role === 'driver') throw forbidden("A driver reads a pickup point's code by scanning it at the point");
      const point = await findPickupPoint(deps.db, user, params.id);
      const text = await pickupPointCode(deps.db, point.id, deps.clock.now());
      const image = await renderQr(text, query.format, query.size);
      c.header('X-QR-Text', text);
      c.header('Cache-Control', 'private, no-store');
      if (typeof image === 'string') return c.body(image, 200, { 'Content-Type': 'image/svg+xml' });
      c.header('Content-Disposition', `inline; filename="pickup-point-${point.id}.png"`);
      return c.body(image as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'image/png' });
    },
  );
}
