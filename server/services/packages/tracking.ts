import { codDueText, codRow } from '../cod/parcel';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { packageEvent, pkg, suburb } from '../../db/schema/index';
import { iso } from '../../clock';
import { notFound } from '../../errors';
import { isPackageStatus, STATUS_LABELS, type PackageStatus } from '../../../shared/lifecycle';
import type { TrackingAnswer } from '../../../shared/schemas/delivery';
import { coldPkg, historyRowsOf } from '../history/read';

/** Public lookups per address and minute: enough for a recipient, too few to walk the number space. */
export const TRACK_LIMIT = 30;
export const TRACK_WINDOW_MS = 60_000;

/**
 * What a recipient may see of a parcel: its states, when, and the suburb it is going to. No names,
 * phones, photos, drivers or notes; refused scans and other internal events are left out.
 */
export async function trackParcel(deps: Deps, hawb: string, address: string): Promise<TrackingAnswer> {
  const now = deps.clock.now();
  await deps.limiter.hit(`track:${address}`, TRACK_LIMIT, TRACK_WINDOW_MS, now);
  // A parcel moved to history (long final) is tracked the same way from its kept rows.
  const hot = await deps.db
    .select({ p: pkg, suburb_name: suburb.name })
    .from(pkg)
    .leftJoin(suburb, eq(suburb.id, pkg.suburb_id))
    .where(eq(pkg.hawb, hawb))
    .get();
  const row =
    hot ??
    (await deps.db
      .select({ p: coldPkg, suburb_name: suburb.name })
      .from(coldPkg)
      .leftJoin(suburb, eq(suburb.id, coldPkg.suburb_id))
      .where(eq(coldPkg.hawb, hawb))
      .get());
  if (!row || row.p.deleted_at != null) throw notFound(`No parcel has the tracking number ${hawb}`);
  const place = row.suburb_name ?? row.p.postcode_name ?? null;
  const events = hot
    ? await deps.db
        .select({ to: packageEvent.to_status, at: packageEvent.occurred_at, received: packageEvent.received_at })
        .from(packageEvent)
        .where(and(eq(packageEvent.package_id, row.p.id), isNotNull(packageEvent.to_status)))
        .orderBy(asc(packageEvent.id))
        .all()
    : (await historyRowsOf<typeof packageEvent.$inferSelect>(deps.db, row.p.id, 'package_event'))
        .filter((e) => e.to_status != null)
        .map((e) => ({ to: e.to_status, at: e.occurred_at, received: e.received_at }));
  const shown = events
    .filter((e): e is { to: PackageStatus; at: number; received: number } => e.to != null && isPackageStatus(e.to))
    // A reassignment or a reset scan is housekeeping, not news: show each status once per run.
    .filter((e, i, all) => i === 0 || all[i - 1]?.to !== e.to);
  const status = row.p.status as PackageStatus;
  const cod = await codRow(deps.db, row.p.id);
  const due = cod ? codDueText(cod) : null;
  return {
    // Only where something is due: every other parcel answers exactly the specification's shape.
    ...(due ? { cash_on_delivery: due } : {}),
    success: true,
    hawb: row.p.hawb,
    status,
    status_label: STATUS_LABELS[status],
    delivered_at: iso(row.p.delivered_at),
    suburb: place,
    events: shown.map((e) => ({ status: e.to, label: STATUS_LABELS[e.to], time: iso(Math.min(e.at, e.received)) ?? '', suburb: place })),
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A page a recipient can open from a text message without the app. */
export function trackingHtml(t: TrackingAnswer): string {
  const rows = t.events
    .slice()
    .reverse()
    .map(
      (e) =>
        `<li><strong>${escapeHtml(e.label)}</strong> <time datetime="${escapeHtml(e.time)}">${escapeHtml(e.time.replace('T', ' ').slice(0, 16))} UTC</time>${e.suburb ? ` &middot; ${escapeHtml(e.suburb)}` : ''}</li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Parcel ${escapeHtml(t.hawb)}</title><style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}li{margin:.5rem 0}</style></head>
<body><h1>Parcel ${escapeHtml(t.hawb)}</h1><p>Status: <strong>${escapeHtml(t.status_label)}</strong></p>${t.cash_on_delivery ? `<p>To pay on delivery: <strong>${escapeHtml(t.cash_on_delivery)}</strong> (cash or card)</p>` : ''}<ol reversed>${rows}</ol></body></html>`;
}
