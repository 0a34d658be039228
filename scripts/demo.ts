import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { createApp } from '../server/app';
import { systemClock } from '../server/clock';
import { openDatabase } from '../server/db/client';
import { company, country, failedDeliveryStatus, state, suburb, user, warehouse, zone } from '../server/db/schema/index';
import { openFileStore } from '../server/files/index';
import { hashPassword } from '../server/services/auth/passwords';

/**
 * `npm run demo`: a realistic small courier in the configured database — companies, warehouses,
 * zones and suburbs, drivers and a few hundred packages, assigned through the real API.
 */
const databasePath = resolve(process.env.DATABASE_PATH ?? './data/courier.db');
const db = await openDatabase({ url: process.env.DATABASE_URL || undefined, path: databasePath });
if (
  ((
    await db
      .select({ n: sql<number>`count(*)` })
      .from(company)
      .get()
  )?.n ?? 0) > 0
) {
  console.log(`The database ${databasePath} already has data; demo not loaded. Delete it to start again.`);
  process.exit(0);
}
const app = createApp({ db, files: openFileStore(process.env), clock: systemClock });
const now = Date.now();
const PASSWORD = 'demo-password';
const hash = await hashPassword(PASSWORD);

const au = await db
  .insert(country)
  .values({ name: 'Australia', iso2: 'AU', currency: 'AUD', created_at: now, updated_at: now })
  .returning()
  .get();
const nsw = await db
  .insert(state)
  .values({ name: 'New South Wales', code: 'NSW', country_id: au.id, created_at: now, updated_at: now })
  .returning()
  .get();
const zones = [];
for (const name of ['CBD', 'Inner West', 'Eastern Suburbs', 'North Shore']) {
  zones.push(
    await db
      .insert(zone)
      .values({ name, code: name.slice(0, 3).toUpperCase(), created_at: now, updated_at: now })
      .returning()
      .get(),
  );
}
const suburbs = [
  ['Sydney', '2000', 0, -33.8688, 151.2093],
  ['Haymarket', '2000', 0, -33.8792, 151.205],
  ['Newtown', '2042', 1, -33.897, 151.179],
  ['Marrickville', '2204', 1, -33.911, 151.155],
  ['Bondi', '2026', 2, -33.8915, 151.2767],
  ['Randwick', '2031', 2, -33.914, 151.241],
  ['Chatswood', '2067', 3, -33.7969, 151.1803],
  ['North Sydney', '2060', 3, -33.839, 151.207],
] as const;
const suburbRows = [];
for (const [name, postcode, z, latitude, longitude] of suburbs) {
  suburbRows.push(
    await db
      .insert(suburb)
      .values({ name, postcode, zone_id: zones[z]!.id, state_id: nsw.id, latitude, longitude, created_at: now, updated_at: now })
      .returning()
      .get(),
  );
}
await db
  .insert(warehouse)
  .values([
    {
      name: 'Mascot depot',
      street_address: '9 Depot Way',
      suburb: 'Mascot',
      state: 'NSW',
      postcode: '2020',
      created_at: now,
      updated_at: now,
    },
    {
      name: 'Silverwater depot',
      street_address: '40 Holker St',
      suburb: 'Silverwater',
      state: 'NSW',
      postcode: '2128',
      created_at: now,
      updated_at: now,
    },
  ])
  .run();
for (const name of ['Receiver not home', 'Address not found', 'Refused by receiver', 'Business closed', 'Unsafe to leave']) {
  await db.insert(failedDeliveryStatus).values({ name, created_at: now, updated_at: now }).run();
}
const companies = [];
for (const [name, code] of [
  ['Acme Imports', 'ACME'],
  ['Harbour Books', 'HBOOK'],
  ['Koala Cosmetics', 'KOALA'],
] as const) {
  companies.push(
    await db
      .insert(company)
      .values({ name, code, email: `${code.toLowerCase()}@demo.test`, created_at: now, updated_at: now })
      .returning()
      .get(),
  );
}

const logins: [string, string, string][] = [];
const mk = async (name: string, email: string, role: string, companyId: number | null = null) => {
  const row = await db
    .insert(user)
    .values({ name, email, role, company_id: companyId, password_hash: hash, created_at: now, updated_at: now })
    .returning()
    .get();
  logins.push([role, email, PASSWORD]);
  return row;
};
await mk('Ada Admin', 'admin@demo.test', 'admin');
await mk('Sam Supervisor', 'supervisor@demo.test', 'supervisor');
await mk('Dee Depot', 'depot@demo.test', 'depot_manager');
for (const c of companies) await mk(`${c.name} desk`, `desk@${c.code.toLowerCase()}.demo.test`, 'company', c.id);
const drivers = [];
for (const n of ['Dana', 'Eli', 'Farah', 'Gus', 'Hana', 'Ivo'])
  drivers.push(await mk(`${n} Driver`, `${n.toLowerCase()}@demo.test`, 'driver'));

const login = await app.request('/api/auth/web-login/', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@demo.test', password: PASSWORD }),
});
const token = ((await login.json()) as { token: string }).token;
const call = async (path: string, body: unknown) => {
  const res = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number };
};
const streets = ['George St', 'King St', 'Oxford St', 'Victoria Rd', 'Pacific Hwy', 'Crown St', 'Campbell Pde', 'Miller St'];
const byDriver = new Map<number, number[]>();
for (let i = 0; i < 300; i++) {
  const s = suburbRows[i % suburbRows.length]!;
  const jitter = () => ((Math.sin(i * 12.9898) * 43758.5453) % 1) * 0.01;
  const p = await call('/api/package/', {
    hawb: `DEMO${String(100000 + i)}`,
    company: companies[i % companies.length]!.id,
    customer_name: `Receiver ${i + 1}`,
    customer_address: `${(i % 180) + 1} ${streets[i % streets.length]}, ${s.name}`,
    customer_phone: `+61 4${String(10000000 + i * 7919).slice(0, 8)}`,
    postcode: Number(s.postcode),
    postcode_name: s.name,
    suburb: s.id,
    weight: 0.5 + (i % 9),
    count: 1 + (i % 3),
    description_of_goods: ['Books', 'Cosmetics', 'Electronics', 'Clothing'][i % 4],
    latitude: (s.latitude ?? 0) + jitter(),
    longitude: (s.longitude ?? 0) + jitter(),
  });
  if (i < 240) {
    const d = drivers[i % drivers.length]!;
    byDriver.set(d.id, [...(byDriver.get(d.id) ?? []), p.id]);
  }
}
for (const [driver, packages] of byDriver) await call('/api/assign-package/assign-driver/', { driver, packages });

console.log(
  `Demo data loaded into ${databasePath}: 3 companies, 2 warehouses, 4 zones, 8 suburbs, 6 drivers, 300 packages (240 assigned).`,
);
console.log('\nLogins (password for all: demo-password):');
for (const [role, email] of logins) console.log(`  ${role.padEnd(14)} ${email}`);
console.log('\nStart the server with `npm start` and open http://localhost:3000');
await db.$engine.close();
