import { deliveryAttempt, deliveryRecord, pkg, zone } from '../../server/db/schema/index';
import type { TestApp } from '../helpers/app';

export const at = (s: string) => Date.parse(s);

/**
 * A known week of work, written straight into the tables the reports read (deliveries and failed
 * attempts are other groups' routes; what matters here is what the reports make of them).
 */
export async function reportWorld(t: TestApp) {
  const admin = await t.login('admin');
  const a = await t.login('driver', { name: 'Alice Driver' });
  const b = await t.login('driver', { name: 'Bob Driver' });
  const x = await t.company('Xpress Goods');
  const y = await t.company('Yonder Supplies');
  const coX = await t.login('company', { companyId: x });
  const coY = await t.login('company', { companyId: y });
  const now = t.clock.now();
  const z1 = (await t.db.insert(zone).values({ name: 'Z1', created_at: now, updated_at: now }).returning().get()).id;
  const z2 = (await t.db.insert(zone).values({ name: 'Z2', created_at: now, updated_at: now }).returning().get()).id;

  const parcel = async (hawb: string, company: number, zoneId: number, status: string, extra: Partial<typeof pkg.$inferInsert> = {}) =>
    (
      await t.db
        .insert(pkg)
        .values({
          hawb,
          company_id: company,
          zone_id: zoneId,
          status,
          customer_name: `Customer ${hawb}`,
          created_at: at('2026-01-04T08:00:00Z'),
          updated_at: now,
          ...extra,
        })
        .returning()
        .get()
    ).id;
  const delivered = (id: number, driver: number, when: string) =>
    t.db
      .insert(deliveryRecord)
      .values({
        package_id: id,
        driver_id: driver,
        recipient_name: 'Rita',
        occurred_at: at(when),
        received_at: at(when),
        updated_at: at(when),
      })
      .run();
  const failed = (id: number, driver: number, no: number, when: string) =>
    t.db
      .insert(deliveryAttempt)
      .values({ package_id: id, attempt_no: no, driver_id: driver, reason: 'Nobody home', occurred_at: at(when), received_at: at(when) })
      .run();

  // The customer typed a formula: every export must neutralise it.
  const p1 = await parcel('P1', x, z1, 'delivered', {
    delivery_date: '2026-01-05',
    customer_name: '=HYPERLINK("http://evil.example","x")',
  });
  const p2 = await parcel('P2', x, z1, 'delivered', { delivery_date: '2026-01-04' });
  const p3 = await parcel('P3', y, z2, 'delivered');
  const p4 = await parcel('P4', y, z1, 'failed', { delivery_date: '2026-01-06', attempts: 2 });
  const p5 = await parcel('P5', x, z2, 'delivered', { delivery_date: '2026-01-06' });
  const p6 = await parcel('P6', x, z1, 'delivered', { created_at: at('2025-12-01T08:00:00Z') });
  const p7 = parcel('P7', x, z1, 'created', { created_at: at('2026-01-06T08:00:00Z') });

  await delivered(p1, a.id, '2026-01-05T09:00:00Z');
  await failed(p3, a.id, 1, '2026-01-05T10:00:00Z');
  await delivered(p2, a.id, '2026-01-05T11:00:00Z');
  await failed(p4, b.id, 1, '2026-01-05T15:00:00Z');
  await delivered(p3, b.id, '2026-01-06T09:30:00Z');
  await failed(p4, b.id, 2, '2026-01-06T10:00:00Z');
  await delivered(p5, b.id, '2026-01-06T12:30:00Z');
  await delivered(p6, a.id, '2025-12-01T12:00:00Z');

  return { admin, a, b, x, y, coX, coY, z1, z2, ids: { p1, p2, p3, p4, p5, p6, p7 } };
}
