import { IdParams } from '../../shared/schemas/common';
import { labelPieces, LabelQuery, LabelsQuery, ManifestQuery, MAX_LABELS_PER_REQUEST } from '../../shared/schemas/labels';
import type { Package } from '../../shared/schemas/package';
import { STAFF_ROLES } from '../../shared/roles';
import { businessZone } from '../services/time/zones';
import { localClock, localDay } from '../../shared/time/zone';
import { badRequest, forbidden } from '../errors';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import type { LabelLayout } from '../services/labels/pdf';
import type { Deps } from '../deps';
import type { SessionUser } from '../services/auth/session';
import { shareKey } from '../services/workers/shareKey';
import { manifestParcels, parcelsToLabel } from '../services/labels/select';
import { doorLabelWords } from '../services/door/feed';
import { withCodDue } from '../services/cod/parcel';
import { courierName } from '../services/money/businessProfile';

const tags = ['Labels'];
const pdf = (bytes: Uint8Array<ArrayBuffer>, name: string) =>
  new Response(bytes, {
    headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${name}"`, 'cache-control': 'no-store' },
  });

/** Shipping labels (4x6 inch or A4 sheets of four) and driver/route manifests, as PDF (issue 18). */
export function labelRoutes(app: App): void {
  const noDrivers = (role: string) => {
    if (role === 'driver') throw forbidden('Drivers do not print labels');
  };
  /** Refused before anything is drawn when the parcels' pieces need more labels than one request may hold. */
  const capped = (parcels: Package[]) => {
    const labels = parcels.reduce((s, p) => s + labelPieces(p.count), 0);
    if (labels > MAX_LABELS_PER_REQUEST) {
      throw badRequest(
        `These parcels need ${labels} labels; one request draws at most ${MAX_LABELS_PER_REQUEST}: ask for fewer parcels at a time`,
        [{ path: 'ids', message: `${labels} labels (one per piece) over the limit of ${MAX_LABELS_PER_REQUEST}` }],
      );
    }
    return parcels;
  };
  const labels = async (deps: Deps, user: SessionUser, parcels: Package[], layout: LabelLayout) =>
    deps.pdfs.render(
      {
        kind: 'labels',
        parcels: await withCodDue(deps.db, capped(parcels)),
        layout,
        door: await doorLabelWords(deps.db, parcels),
        courier: await courierName(deps.db),
      },
      shareKey(user),
    );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/labels/',
      tags,
      access: 'package.view',
      catalogue: [],
      query: LabelsQuery,
      produces: 'application/pdf',
      summary: 'Labels for a selection of parcels (`ids=1,2,3`), one per piece; `layout=4x6` (default) or `a4` (four per sheet)',
      description:
        'Each label: Code 128 barcode and QR code of the tracking number, recipient, address, zone in large type, weight, piece n of N. ' +
        'For an upload batch, pass the ids the upload answered. A parcel outside your scope answers 404. ' +
        `At most 500 ids and at most ${MAX_LABELS_PER_REQUEST} labels (pieces: a parcel's \`count\`, up to 99 each) per request: more answer 400. ` +
        'Labels are drawn off the request thread in a bounded queue shared fairly between companies; when it is full the answer is 503 with Retry-After.',
    },
    async ({ deps, user, query }) => {
      noDrivers(user.role);
      const parcels = await parcelsToLabel(deps.db, user, query.ids);
      return pdf(await labels(deps, user, parcels, query.layout as LabelLayout), `labels-${parcels.length}.pdf`);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/{id}/label/',
      tags,
      access: 'package.view',
      catalogue: [],
      params: IdParams,
      query: LabelQuery,
      produces: 'application/pdf',
      summary: "One parcel's label(s), one per piece (its `count`, at most 99)",
    },
    async ({ deps, user, params, query }) => {
      noDrivers(user.role);
      const parcels = await parcelsToLabel(deps.db, user, [params.id]);
      return pdf(await labels(deps, user, parcels, query.layout as LabelLayout), `label-${parcels[0]?.hawb ?? params.id}.pdf`);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/manifest/',
      tags,
      access: { roles: STAFF_ROLES },
      catalogue: [],
      query: ManifestQuery,
      produces: 'application/pdf',
      summary:
        "A manifest: a driver's open parcels (`driver=`) or a route's parcels (`route=`), in delivery order, with totals and signature lines",
    },
    async ({ deps, user, query }) => {
      const m = await manifestParcels(deps.db, query);
      const now = deps.clock.now();
      // The manifest's day and time are the business's wall clock (issue 31).
      const zone = await businessZone(deps);
      const info = {
        title: m.title,
        courier: await courierName(deps.db),
        driver: m.driver,
        date: m.date ?? localDay(now, zone),
        generatedAt: `${localDay(now, zone)} ${localClock(now, zone)}`,
      };
      const bytes = await deps.pdfs.render({ kind: 'manifest', info, parcels: m.parcels }, shareKey(user));
      return pdf(bytes, 'manifest.pdf');
    },
  );
}
