import { openDatabase, type Db } from '../server/db/client';
import { authToken, company, pkg, user, zone } from '../server/db/schema/index';
import { hashPasswordSync } from '../server/services/auth/passwords';
import { newToken } from '../server/services/auth/tokens';

export interface BenchData {
  path: string;
  adminToken: string;
  drivers: { id: number; token: string; barcodes: string[] }[];
  packages: number;
}

/**
 * A realistic day written straight into SQLite (the API would take minutes): companies, zones,
 * drivers with tokens, and packages assigned to drivers, `perDriver` each, none scanned yet.
 */
export async function seedBenchDatabase(
  path: string,
  opts = { companies: 20, drivers: 200, perDriver: 100, unassigned: 0 },
): Promise<BenchData> {
  const db: Db = await openDatabase(path);
  const now = Date.now();
  const hash = hashPasswordSync('bench-password', 1024);
  const out: BenchData = { path, adminToken: '', drivers: [], packages: 0 };
  await db.transaction(async () => {
    const companyIds: number[] = [];
    for (let i = 0; i < opts.companies; i++) {
      companyIds.push(
        (
          await db
            .insert(company)
            .values({ name: `Company ${i}`, code: `CO${i}`, email: `co${i}@bench.test`, created_at: now, updated_at: now })
            .returning()
            .get()
        ).id,
      );
    }
    const zoneIds: number[] = [];
    for (let i = 0; i < 10; i++)
      zoneIds.push(
        (
          await db
            .insert(zone)
            .values({ name: `Zone ${i}`, created_at: now, updated_at: now })
            .returning()
            .get()
        ).id,
      );
    const admin = await db
      .insert(user)
      .values({
        name: 'Bench Admin',
        email: 'admin@bench.test',
        role: 'super_admin',
        password_hash: hash,
        created_at: now,
        updated_at: now,
      })
      .returning()
      .get();
    const t = newToken();
    await db
      .insert(authToken)
      .values({ user_id: admin.id, token_hash: t.hash, kind: 'web', expires_at: now + 86_400_000, created_at: now })
      .run();
    out.adminToken = t.token;
    let n = 0;
    for (let d = 0; d < opts.drivers; d++) {
      const driver = await db
        .insert(user)
        .values({
          name: `Driver ${d}`,
          email: `driver${d}@bench.test`,
          role: 'driver',
          password_hash: hash,
          created_at: now,
          updated_at: now,
        })
        .returning()
        .get();
      const dt = newToken();
      await db
        .insert(authToken)
        .values({ user_id: driver.id, token_hash: dt.hash, kind: 'mobile', expires_at: now + 86_400_000, created_at: now })
        .run();
      const barcodes: string[] = [];
      for (let i = 0; i < opts.perDriver; i++) {
        const hawb = `BN${String(n++).padStart(8, '0')}`;
        barcodes.push(hawb);
        await db
          .insert(pkg)
          .values({
            hawb,
            company_id: companyIds[n % companyIds.length],
            zone_id: zoneIds[n % zoneIds.length],
            status: 'assigned',
            assigned_to_id: driver.id,
            customer_name: `Receiver ${n}`,
            customer_address: `${n} Bench Street`,
            postcode: 2000 + (n % 100),
            weight: 1 + (n % 7),
            latitude: -33.8 + (n % 100) / 1000,
            longitude: 151.1 + (n % 100) / 1000,
            sequence_no: i + 1,
            created_at: now,
            updated_at: now,
          })
          .run();
      }
      out.drivers.push({ id: driver.id, token: dt.token, barcodes });
    }
    for (let i = 0; i < opts.unassigned; i++) {
      await db
        .insert(pkg)
        .values({
          hawb: `BU${String(i).padStart(8, '0')}`,
          company_id: companyIds[i % companyIds.length],
          status: 'created',
          created_at: now,
          updated_at: now,
        })
        .run();
    }
    out.packages = n + opts.unassigned;
  });
  await db.$engine.close();
  return out;
}
