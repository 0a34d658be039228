import { IdParams } from '../../shared/schemas/common';
import { LabelQuery, LabelsQuery, ManifestQuery } from '../../shared/schemas/labels';
import { STAFF_ROLES } from '../../shared/roles';
import { iso } from '../clock';
import { forbidden } from '../errors';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { labelsPdf, manifestPdf, type LabelLayout } from '../services/labels/pdf';
import { manifestParcels, parcelsToLabel } from '../services/labels/select';

const tags = ['Labels'];
const pdf = (bytes: Uint8Array<ArrayBuffer>, name: string) => new Response(bytes, {
  headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${name}"`, 'cache-control': 'no-store' },
});

/** Shipping labels (4x6 inch or A4 sheets of four) and driver/route manifests, as PDF (issue 18). */
export function labelRoutes(app: App): void {
  const noDrivers = (role: string) => { if (role === 'driver') throw forbidden('Drivers do not print labels'); };

  defineRoute(app, {
    method: 'get', path: '/package/labels/', tags, access: 'package.view', catalogue: [], query: LabelsQuery, produces: 'application/pdf',
    summary: 'Labels for a selection of parcels (`ids=1,2,3`), one per piece; `layout=4x6` (default) or `a4` (four per sheet)',
    description: 'Each label: Code 128 barcode and QR code of the tracking number, recipient, address, zone in large type, weight, piece n of N. '
      + 'For an upload batch, pass the ids the upload answered. A parcel outside your scope answers 404.',
  }, async ({ deps, user, query }) => {
    noDrivers(user.role);
    const parcels = await parcelsToLabel(deps.db, user, query.ids);
    return pdf(await labelsPdf(parcels, query.layout as LabelLayout), `labels-${parcels.length}.pdf`);
  });

  defineRoute(app, {
    method: 'get', path: '/package/{id}/label/', tags, access: 'package.view', catalogue: [], params: IdParams, query: LabelQuery, produces: 'application/pdf',
    summary: "One parcel's label(s), one per piece",
  }, async ({ deps, user, params, query }) => {
    noDrivers(user.role);
    const parcels = await parcelsToLabel(deps.db, user, [params.id]);
    return pdf(await labelsPdf(parcels, query.layout as LabelLayout), `label-${parcels[0]?.hawb ?? params.id}.pdf`);
  });

  defineRoute(app, {
    method: 'get', path: '/package/manifest/', tags, access: { roles: STAFF_ROLES }, catalogue: [], query: ManifestQuery, produces: 'application/pdf',
    summary: "A manifest: a driver's open parcels (`driver=`) or a route's parcels (`route=`), in delivery order, with totals and signature lines",
  }, async ({ deps, query }) => {
    const m = await manifestParcels(deps.db, query);
    const now = deps.clock.now();
    const bytes = await manifestPdf({ title: m.title, driver: m.driver, date: m.date ?? (iso(now) ?? '').slice(0, 10), generatedAt: (iso(now) ?? '').slice(0, 16).replace('T', ' ') }, m.parcels);
    return pdf(bytes, 'manifest.pdf');
  });
}
