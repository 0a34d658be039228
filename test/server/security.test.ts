import ExcelJS from 'exceljs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { manualClock } from '../../server/clock';
import { openMemoryDatabase } from '../../server/db/client';
import { diskFileStore } from '../../server/files';
import { ROLE_PERMISSIONS, type Permission } from '../../shared/permissions';
import { ROLES, type Role } from '../../shared/roles';
import { makeApp, type TestApp } from '../helpers/app';

/**
 * Generic over the OpenAPI document (`x-access`, `security: []`, produced media types), so routes
 * added later are covered without anyone remembering to add them here.
 */
interface Operation {
  security?: unknown[];
  'x-access'?: string;
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
}
interface Op {
  method: string;
  path: string;
  op: Operation;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Routes that end the caller's own session or throttle by design; the auth suite covers them. */
const SESSION_ROUTES = new Set(['/auth/login/', '/auth/web-login/', '/auth/logout/']);

async function operations(t: TestApp): Promise<Op[]> {
  const res = await t.json<Doc>('GET', '/api/openapi.json', null);
  expect(res.status).toBe(200);
  const out: Op[] = [];
  for (const [path, item] of Object.entries(res.body.paths)) {
    for (const method of METHODS) if (item[method]) out.push({ method, path, op: item[method] });
  }
  return out;
}

const isPublic = (op: Operation) => Array.isArray(op.security) && op.security.length === 0;
const isIdParam = (name: string) => /^(id|number|.*_id|.*Id)$/.test(name);
const paramNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
const concrete = (path: string, value: (name: string) => string) =>
  `/api${path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)))}`;

function roleMayCall(op: Operation, role: Role): boolean {
  const access = op['x-access'] ?? 'authenticated';
  if (isPublic(op) || access === 'public' || access === 'authenticated') return true;
  if (access.startsWith('roles:')) return access.slice(6).split(',').includes(role);
  return ROLE_PERMISSIONS[role].includes(access as Permission);
}

function produced(op: Operation): string[] {
  const ok = Object.entries(op.responses ?? {}).find(([code]) => code.startsWith('2'));
  return Object.keys(ok?.[1].content ?? {});
}
const isExport = (op: Operation) => produced(op).some((m) => /csv|spreadsheet|excel/.test(m));

/** What a person can read in an answer: text as is, an .xlsx workbook as its cells. */
async function readable(res: Response): Promise<{ text: string; cells: string[]; formulas: number; xlsx: boolean }> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!(bytes[0] === 0x50 && bytes[1] === 0x4b)) {
    const text = new TextDecoder().decode(bytes);
    return { text, cells: csvCells(text), formulas: 0, xlsx: false };
  }
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  const cells: string[] = [];
  let formulas = 0;
  wb.eachSheet((sheet) =>
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        if (cell.type === ExcelJS.ValueType.Formula) formulas += 1;
        cells.push(typeof cell.value === 'string' ? cell.value : cell.text);
      }),
    ),
  );
  return { text: cells.join('\n'), cells, formulas, xlsx: true };
}

/** Enough of RFC 4180 for our exports: quoted cells with doubled quotes, comma, semicolon or tab separated. */
function csvCells(text: string): string[] {
  const header = text.split('\n')[0] ?? '';
  const sep = [',', ';', '\t'].sort((a, b) => header.split(b).length - header.split(a).length)[0]!;
  const cells: string[] = [];
  let cur = '';
  let quoted = false;
  let fresh = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"' && fresh) {
      quoted = true;
      fresh = false;
    } else if (ch === sep || ch === '\n') {
      cells.push(cur.replace(/\r$/, ''));
      cur = '';
      fresh = true;
    } else {
      cur += ch;
      fresh = false;
    }
  }
  if (cur) cells.push(cur);
  return cells;
}

// 1x1 PNG.
const PNG: Uint8Array<ArrayBuffer> = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
);

async function upload(
  t: TestApp,
  token: string,
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
  type: string,
  kind = 'photo',
): Promise<{ status: number; body: { id?: number; code?: string } }> {
  const form = new FormData();
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
  form.set('kind', kind);
  const res = await t.call('POST', '/api/file/', token, form);
  return { status: res.status, body: (await res.json()) as { id?: number; code?: string } };
}

const SECRET_NAME = 'Zelda Quixotica';
const SECRET_PHONE = '0499111222';
const SECRET_ADDRESS = '77 Hidden Lane';

/** Company A with a parcel full of personal data, delivered by A's driver with a photo; company B and driver B beside them. */
async function twoCompanies() {
  const t = await makeApp();
  const admin = await t.login('super_admin');
  const coA = await t.company('Alpha Freight');
  const coB = await t.company('Beta Freight');
  const companyA = await t.login('company', { companyId: coA });
  const companyB = await t.login('company', { companyId: coB });
  const driverA = await t.login('driver', { companyId: null });
  const driverB = await t.login('driver', { companyId: null });
  const made = await t.json<{ id: number; hawb: string }>('POST', '/api/package/', companyA.token, {
    hawb: 'SECRET-A-0001',
    customer_name: SECRET_NAME,
    customer_phone: SECRET_PHONE,
    customer_address: SECRET_ADDRESS,
    postcode: 2000,
  });
  expect(made.status).toBe(201);
  const pkgA = made.body.id;
  expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driverA.id, packages: [pkgA] })).status).toBe(
    200,
  );
  const photo = await upload(t, driverA.token, PNG, 'door.png', 'image/png');
  expect(photo.status).toBe(201);
  const delivered = await t.json('POST', `/api/package-delivered/${pkgA}/deliver/`, driverA.token, {
    recipient_name: SECRET_NAME,
    photos: [photo.body.id],
  });
  expect(delivered.status).toBe(200);
  return { t, admin, coA, coB, companyA, companyB, driverA, driverB, pkgA, fileA: photo.body.id!, hawbA: made.body.hawb };
}

describe('access matrix over every route of the OpenAPI document', () => {
  it('a role lacking the declared permission or role is refused (403/404, never 2xx); a role holding it is never refused by the access check', async () => {
    const t = await makeApp();
    const ops = await operations(t);
    const tokens = new Map<Role, string>();
    for (const role of ROLES) tokens.set(role, (await t.login(role)).token);
    const refusedByAccess = /^You need the "|^Only .* may do this$/;
    const failures: string[] = [];
    let checked = 0;
    for (const { method, path, op } of ops) {
      if (SESSION_ROUTES.has(path)) continue;
      // An id nothing has, so allowed callers reach the handler without changing anything.
      const url = concrete(path, (name) => (isIdParam(name) ? '999999' : 'zz-none'));
      const multipart = Boolean(op.requestBody?.content?.['multipart/form-data']);
      for (const role of ROLES) {
        const body = method === 'get' || method === 'delete' ? undefined : multipart ? new FormData() : {};
        const res = await t.call(method.toUpperCase(), url, tokens.get(role), body);
        const text = await res.text();
        const message = res.headers.get('content-type')?.includes('json')
          ? String((JSON.parse(text) as { message?: string }).message ?? '')
          : '';
        checked += 1;
        const where = `${method.toUpperCase()} ${path} as ${role} (x-access ${op['x-access']}) -> ${res.status}`;
        if (res.status >= 500) failures.push(`${where}: server error`);
        // Public routes may authenticate by other means (a company API key), so a 401 there is theirs to give.
        if (isPublic(op)) continue;
        if (roleMayCall(op, role)) {
          if (res.status === 401 || (res.status === 403 && refusedByAccess.test(message)))
            failures.push(`${where}: refused by access check: ${message}`);
        } else if (res.status !== 403 && res.status !== 404) {
          failures.push(`${where}: expected 403/404`);
        }
      }
    }
    console.log(`[security] access matrix: ${ops.length} operations x ${ROLES.length} roles = ${checked} requests`);
    expect(failures).toEqual([]);
  }, 600_000);
});

describe("record scope: another company or driver never reads company A's parcel", () => {
  it("through any GET route of the document (lists, retrieve, search, exports, files) with A's ids substituted", async () => {
    const w = await twoCompanies();
    const { t } = w;
    const ops = (await operations(t)).filter((o) => o.method === 'get' && !isPublic(o.op));
    const candidates = [w.pkgA, w.fileA, w.coA, w.driverA.id, w.companyA.id].map(String);
    const queries = [
      '',
      `?search=${encodeURIComponent(SECRET_NAME)}`,
      `?search=${SECRET_PHONE}`,
      `?company=${w.coA}&driver=${w.driverA.id}`,
      `?package=${w.pkgA}&hawb=${w.hawbA}`,
    ];
    const leaks: string[] = [];
    let requests = 0;
    for (const viewer of [w.companyB, w.driverB]) {
      for (const { path, op } of ops) {
        const names = paramNames(path);
        const urls =
          names.length === 0
            ? queries.map((q) => `/api${path}${q}`)
            : candidates.map((id) =>
                concrete(path, (name) => (isIdParam(name) ? id : name === 'hawb' || name === 'barcode' ? w.hawbA : 'x')),
              );
        for (const url of urls) {
          const res = await t.call('GET', url, viewer.token);
          requests += 1;
          if (res.status >= 500) {
            leaks.push(`${url}: ${res.status}`);
            continue;
          }
          if (res.status >= 300) {
            await res.arrayBuffer();
            continue;
          }
          const { text } = await readable(res);
          for (const secret of [SECRET_NAME, SECRET_PHONE, SECRET_ADDRESS]) {
            if (text.includes(secret))
              leaks.push(
                `${url} as ${viewer === w.companyB ? 'company B' : 'driver B'} shows "${secret}" (x-access ${op['x-access']}, ${produced(op).join(',')})`,
              );
          }
        }
      }
    }
    console.log(`[security] scope scan: ${ops.length} GET routes, ${requests} requests as company B and driver B`);
    expect(leaks).toEqual([]);

    // The same reads as company A do see it (the scan above is not vacuous).
    const own = await t.json<{ results: { customer_name: string }[] }>(
      'GET',
      `/api/package/?search=${encodeURIComponent(SECRET_NAME)}`,
      w.companyA.token,
    );
    expect(own.body.results.map((p) => p.customer_name)).toEqual([SECRET_NAME]);
  }, 600_000);

  it("retrieve, file and direct actions on A's records answer 404 to B (ids do not reveal what exists)", async () => {
    const w = await twoCompanies();
    const { t } = w;
    expect((await t.json('GET', `/api/package/${w.pkgA}/`, w.companyB.token)).status).toBe(404);
    expect((await t.json('GET', `/api/package/${w.pkgA}/`, w.driverB.token)).status).toBe(404);
    expect((await t.call('GET', `/api/file/${w.fileA}/`, w.companyB.token)).status).toBe(404);
    expect((await t.call('GET', `/api/file/${w.fileA}/`, w.driverB.token)).status).toBe(404);
    expect((await t.call('GET', `/api/file/${w.fileA}/`, w.driverA.token)).status).toBe(200);
    expect((await t.json('PATCH', `/api/package/${w.pkgA}/`, w.companyB.token, { customer_name: 'hijack' })).status).toBe(404);
    expect(
      (await t.json('POST', `/api/package-delivered/${w.pkgA}/fail/`, w.driverB.token, { failed_delivery_status: 1 })).status,
    ).toBeGreaterThanOrEqual(400);
  });

  it('public tracking shows the journey, never names, phones or addresses', async () => {
    const w = await twoCompanies();
    const ops = (await operations(w.t)).filter((o) => o.method === 'get' && isPublic(o.op) && paramNames(o.path).length > 0);
    expect(ops.length).toBeGreaterThan(0);
    for (const { path } of ops) {
      const url = concrete(path, (name) => (isIdParam(name) ? String(w.pkgA) : w.hawbA));
      const res = await w.t.call('GET', url, null);
      const text = await res.text();
      expect(res.status, url).toBeLessThan(500);
      for (const secret of [SECRET_NAME, SECRET_PHONE, SECRET_ADDRESS, w.driverA.email])
        expect(text, `${url} shows ${secret}`).not.toContain(secret);
    }
    const track = await w.t.json<{ status?: string }>('GET', `/api/track/${w.hawbA}/`, null);
    expect(track.status).toBe(200);
    expect(JSON.stringify(track.body)).toContain('delivered');
  });
});

describe('exports neutralise spreadsheet formulas', () => {
  it('every CSV/Excel route of the document: no cell from user data starts with = + - @ (or tab/CR), and workbooks hold no formulas', async () => {
    const t = await makeApp();
    const admin = await t.login('super_admin');
    const co = await t.company('Formula Co');
    const companyUser = await t.login('company', { companyId: co });
    const payloads = ['=HYPERLINK("http://evil.test","INJ1")', '+INJ2+1', '-INJ3-1', '@INJ4(A1)', '\t=INJ5', '\r=INJ6', '=cmd|INJ7'];
    for (const [i, name] of payloads.entries()) {
      const res = await t.json('POST', '/api/package/', admin.token, {
        hawb: `INJ-${i}`,
        customer_name: name,
        customer_address: name,
        description_of_goods: name,
        company: co,
      });
      expect(res.status).toBe(201);
    }
    const exports = (await operations(t)).filter((o) => o.method === 'get' && isExport(o.op));
    expect(exports.length).toBeGreaterThan(0);
    const failures: string[] = [];
    const exercised: string[] = [];
    const skipped: string[] = [];
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    for (const { path } of exports) {
      const url = concrete(path, () => '1');
      let hit = false;
      for (const q of ['', `?date=${today}`, `?from=2000-01-01&to=2100-01-01`, `?company=${co}`]) {
        for (const token of [admin.token, companyUser.token]) {
          const res = await t.call('GET', url + q, token);
          if (res.status >= 500) failures.push(`${url}${q}: ${res.status}`);
          if (res.status !== 200) {
            await res.arrayBuffer();
            continue;
          }
          const { cells, formulas, xlsx } = await readable(res);
          if (xlsx && formulas > 0) failures.push(`${url}${q}: ${formulas} formula cells`);
          for (const cell of cells.filter((c) => c.includes('INJ'))) {
            hit = true;
            if (/^[=+\-@\t\r]/.test(cell)) failures.push(`${url}${q}: live cell ${JSON.stringify(cell)}`);
          }
        }
      }
      (hit ? exercised : skipped).push(path);
    }
    console.log(
      `[security] exports checked with injected cells: ${exercised.join(', ') || 'none'}; exports that never listed the test parcels: ${skipped.join(', ') || 'none'}`,
    );
    expect(failures).toEqual([]);
    expect(exercised).toContain('/package/csv-download/');
  }, 300_000);
});

describe('security headers and uploads', () => {
  const expectHeaders = (res: Response, what: string) => {
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp, what).toContain("default-src 'self'");
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(res.headers.get('x-frame-options'), what).toBe('DENY');
    expect(res.headers.get('referrer-policy'), what).toBeTruthy();
  };

  it('API answers (success, error, file download) and PWA pages carry CSP, nosniff and frame denial', async () => {
    const w = await twoCompanies();
    expectHeaders(await w.t.call('GET', '/api/package/', w.admin.token), 'API list');
    expectHeaders(await w.t.call('GET', '/api/package/', null), 'API 401');
    expectHeaders(await w.t.call('GET', '/api/nothing-here/', null), 'API 404');
    expectHeaders(await w.t.call('GET', `/api/file/${w.fileA}/`, w.admin.token), 'file download');
    expectHeaders(await w.t.call('GET', '/api/openapi.json', null), 'OpenAPI');

    const dist = mkdtempSync(join(tmpdir(), 'courier-pwa-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Courier</title>');
    writeFileSync(join(dist, 'app.js'), 'console.log(1)');
    const app = createApp({
      db: await openMemoryDatabase(),
      files: diskFileStore(mkdtempSync(join(tmpdir(), 'courier-f-'))),
      clock: manualClock(),
      config: { staticDir: dist },
    });
    for (const path of ['/', '/index.html', '/app.js', '/driver/today']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expectHeaders(res, `PWA ${path}`);
    }
  });

  it('uploads are typed by their bytes, not their name or declared type', async () => {
    const t = await makeApp();
    const driver = await t.login('driver');
    const script = new TextEncoder().encode('<script>alert(document.cookie)</script>');
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = new TextEncoder().encode('<!doctype html><html><body onload="alert(1)"></body></html>');
    for (const [bytes, name, type] of [
      [script, 'photo.jpg', 'image/jpeg'],
      [svg, 'photo.svg', 'image/svg+xml'],
      [html, 'photo.png', 'image/png'],
    ] as const) {
      const res = await upload(t, driver.token, bytes, name, type);
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      expect(res.status, name).toBeLessThan(500);
    }
    const ok = await upload(t, driver.token, PNG, 'whatever.exe', 'application/x-msdownload');
    expect(ok.status).toBe(201);
    const file = await t.call('GET', `/api/file/${ok.body.id}/`, driver.token);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
