import { enqueueCreated } from '../webhooks/events';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { changeLog, company, country, packageEvent, pkg, state, suburb, zone } from '../../db/schema/index';
import { ApiError, forbidden } from '../../errors';
import { setCodAmount } from '../cod/parcel';
import { setParcelRequirements } from '../door/rules';
import { parseProofWords } from '../../../shared/proofWords';
import { Package, PackageCreate, type UploadReportRow } from '../../../shared/schemas/package';
import type { SessionUser } from '../auth/session';
import { volumetricWeight } from './create';
import { companyPolicy, unpricedRefusal, writeNewStates, type NewState } from '../money/parcelPricing';
import { uploadCharger } from './uploadCharges';
import { PRECISIONS, type Precision } from '../../../shared/geo/address';
import { applyResolution, locationInput, recordLocation, resolverFor } from '../geo/location';
import { openGeocodeJob } from '../geo/geocodeJobs';
import type { Cell, Sheet } from './sheet';
import { PLAN_COLUMNS, readPlanColumns, saveUploadWindows } from '../dispatch/uploadWindows';
import { phoneReader } from '../recipients/phone';
import { setRecipientEmail } from '../recipients/recipient';

type Field = keyof PackageCreate;
const WRITABLE = new Set<string>(Object.keys(PackageCreate.shape));
/** Columns of a CSV download that are not inputs: accepted and ignored, so a download can be re-uploaded. */
const READ_ONLY = new Set<string>(Object.keys(Package.shape).filter((k) => !WRITABLE.has(k)));
const NUMBERS = new Set<Field>([
  'weight',
  'price',
  'height',
  'length',
  'width',
  'latitude',
  'longitude',
  'postcode',
  'count',
  'parcel_no',
  'company',
  'zone',
  'suburb',
  'state',
  'country',
  'cod_amount_cents',
]);
const BOOLEANS = new Set<Field>(['sac']);
const DATES = new Set<Field>(['delivery_date']);
const TRUE = new Set(['true', '1', 'yes', 'y']);
const FALSE = new Set(['false', '0', 'no', 'n']);
const NUMERIC = /^-?\d+(\.\d+)?$/;

export interface UploadOptions {
  partial: boolean;
  defaultCompany?: number;
}
export interface UploadResult {
  created: number;
  rejected: number;
  report: UploadReportRow[];
  /** Created parcels no rate line priced (charged nothing yet, listed for the office). */
  unpriced: number;
  /** How precisely the created parcels were located, and the background geocoding job of those waiting for the geocoder. */
  located?: Record<Precision, number>;
  geocode_job?: number | null;
}

type ErrorList = UploadReportRow['errors'];
interface Candidate {
  row: number;
  hawb: string | null;
  input?: PackageCreate;
  errors: ErrorList;
  id: number | null;
}

const headerName = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** Which column holds which field; unknown or repeated headers stop the upload before any row is read. */
function mapHeader(header: string[]): Map<Field, number> {
  const columns = new Map<Field, number>();
  const unknown: string[] = [];
  const repeated: string[] = [];
  header.forEach((raw, i) => {
    const name = headerName(raw);
    if (!name || READ_ONLY.has(name) || PLAN_COLUMNS.has(name)) return;
    if (!WRITABLE.has(name)) {
      unknown.push(raw);
      return;
    }
    if (columns.has(name as Field)) repeated.push(raw);
    columns.set(name as Field, i);
  });
  const problems = [
    ...unknown.map((h) => ({ path: `header.${h}`, message: 'not a package field' })),
    ...repeated.map((h) => ({ path: `header.${h}`, message: 'repeated column' })),
  ];
  if (!columns.has('hawb')) problems.push({ path: 'header.hawb', message: 'the hawb column is required' });
  if (problems.length) {
    throw new ApiError(
      400,
      'validation_error',
      `The header row is not usable: ${problems.map((p) => `${p.path.slice(7)} (${p.message})`).join(', ')}`,
      problems,
    );
  }
  return columns;
}

/** Spreadsheet cells arrive as text or Excel's own types; each becomes what the field's schema expects. */
function convert(field: Field, cell: Cell): unknown {
  if (cell == null) return undefined;
  if (typeof cell === 'string' && cell.trim() === '') return undefined;
  if (NUMBERS.has(field)) return typeof cell === 'string' && NUMERIC.test(cell.trim()) ? Number(cell.trim()) : cell;
  if (BOOLEANS.has(field)) {
    if (typeof cell === 'boolean') return cell;
    const word = String(cell).trim().toLowerCase();
    return TRUE.has(word) ? true : FALSE.has(word) ? false : cell;
  }
  if (DATES.has(field) && cell instanceof Date) return cell.toISOString().slice(0, 10);
  if (cell instanceof Date) return cell.toISOString();
  return typeof cell === 'string' ? cell : String(cell);
}

function parseRow(columns: Map<Field, number>, row: number, cells: Cell[]): Candidate | null {
  if (cells.every((c) => c == null || (typeof c === 'string' && c.trim() === ''))) return null;
  const raw: Record<string, unknown> = {};
  for (const [field, i] of columns) {
    const value = convert(field, cells[i] ?? null);
    if (value !== undefined) raw[field] = value;
  }
  // A sheet names suburbs as people write them ("Bondi"), not by id: a name is the place name the resolver reads.
  if (typeof raw.suburb === 'string' && !NUMERIC.test(raw.suburb.trim())) {
    raw.postcode_name ??= raw.suburb.trim();
    delete raw.suburb;
  }
  const hawb = typeof raw.hawb === 'string' ? raw.hawb.trim() || null : null;
  // What the door needs, in words ("signature + age:18 + code", issue 34); an unknown word is the row's error.
  if (typeof raw.proof_requirements === 'string') {
    const words = parseProofWords(raw.proof_requirements);
    if (!words.ok) return { row, hawb, id: null, errors: [{ path: 'proof_requirements', message: words.message }] };
    raw.proof_requirements = words.value;
  }
  const parsed = PackageCreate.safeParse(raw);
  if (!parsed.success) {
    return {
      row,
      hawb,
      id: null,
      errors: parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'row', message: readableIssue(i) })),
    };
  }
  return { row, hawb: parsed.data.hawb, input: parsed.data, errors: [], id: null };
}

const KIND_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'yes or no',
  date: 'a date',
};

/**
 * A row error a person can act on: zod's "Invalid input: expected string, received undefined" reads
 * "the cell is empty; this column is required" (issue 36). Custom messages (regexes) are kept.
 */
function readableIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? 'the cell is empty; this column is required'
        : `should be ${KIND_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_big':
      return issue.origin === 'string' ? `at most ${String(issue.maximum)} characters` : `at most ${String(issue.maximum)}`;
    case 'too_small':
      return issue.origin === 'string'
        ? Number(issue.minimum) <= 1
          ? 'the cell is empty; this column is required'
          : `at least ${String(issue.minimum)} characters`
        : `at least ${String(issue.minimum)}`;
    case 'invalid_format':
      return issue.format === 'email' ? 'not an e-mail address' : issue.format === 'date' ? 'a date as YYYY-MM-DD' : issue.message;
    default:
      return issue.message;
  }
}

/** Ids among `wanted` that exist (and are live) in a table, looked up in chunks. */
async function existing(db: Db, wanted: Set<number>, lookup: (ids: number[]) => Promise<number[]>): Promise<Set<number>> {
  const ids = [...wanted];
  const out = new Set<number>();
  for (let i = 0; i < ids.length; i += 500) for (const id of await lookup(ids.slice(i, i + 500))) out.add(id);
  return out;
}

/**
 * Validates every row, then checks in a few set-based queries what rows need from the database
 * (free hawbs, live companies, zones, suburbs, states, countries) and inserts the good rows in
 * batches. Must run inside the caller's one transaction: all or nothing unless `partial`.
 */
export async function importPackages(deps: Deps, user: SessionUser, sheet: Sheet, opts: UploadOptions): Promise<UploadResult> {
  const { db } = deps;
  if (user.role === 'driver') throw forbidden('Drivers cannot create packages');
  if (user.role === 'company' && opts.defaultCompany != null && opts.defaultCompany !== user.companyId) {
    throw forbidden('A company can only upload its own packages');
  }
  const columns = mapHeader(sheet.header);
  const candidates = sheet.rows.map((r) => parseRow(columns, r.row, r.cells)).filter((c): c is Candidate => c !== null);
  // Delivery windows and times at the door (issue 16) live beside the package row.
  const windows = readPlanColumns(sheet, headerName);
  for (const c of candidates) c.errors.push(...(windows.get(c.row)?.errors ?? []));
  if (!candidates.length)
    throw new ApiError(400, 'validation_error', 'The file has no package rows', [{ path: 'file', message: 'no rows' }]);

  const good = () => candidates.filter((c): c is Candidate & { input: PackageCreate } => c.input !== undefined && c.errors.length === 0);
  const reject = (c: Candidate, path: string, message: string) => {
    c.errors.push({ path, message });
  };

  const firstRow = new Map<string, number>();
  const readPhone = await phoneReader(db);
  for (const c of good()) {
    const input = c.input;
    // The recipient's phone in international form, read with the business's country, as a single create stores it.
    if (input.customer_phone != null) {
      const typed = input.customer_phone;
      const reading = typed.trim() === '' ? null : readPhone(typed);
      if (reading && !reading.ok) reject(c, 'customer_phone', `"${typed}" is ${reading.message}`);
      input.customer_phone = reading?.ok ? reading.e164 : null;
    }
    if (user.role === 'company') {
      if (input.company != null && input.company !== user.companyId) reject(c, 'company', 'a company uploads only its own packages');
      input.company = user.companyId;
      // A sender never chooses its zone: it follows the address (create.ts withoutSenderZone).
      delete input.zone;
    } else if (input.company == null && opts.defaultCompany != null) {
      input.company = opts.defaultCompany;
    }
    const seen = firstRow.get(input.hawb);
    if (seen !== undefined) reject(c, 'hawb', `duplicate of row ${seen} in this file`);
    else firstRow.set(input.hawb, c.row);
  }

  const hawbs = [...firstRow.keys()];
  const taken = new Set<string>();
  for (let i = 0; i < hawbs.length; i += 500) {
    for (const r of await db
      .select({ hawb: pkg.hawb })
      .from(pkg)
      .where(inArray(pkg.hawb, hawbs.slice(i, i + 500)))
      .all())
      taken.add(r.hawb);
  }
  const idsOf = (key: 'company' | 'zone' | 'suburb' | 'state' | 'country') =>
    new Set(
      good()
        .map((c) => c.input[key])
        .filter((v): v is number => v != null),
    );
  const liveCompanies = await existing(db, idsOf('company'), async (ids) =>
    (
      await db
        .select({ id: company.id })
        .from(company)
        .where(and(inArray(company.id, ids), isNull(company.deleted_at), inArray(company.status, ['active'])))
        .all()
    ).map((r) => r.id),
  );
  const zones = await existing(db, idsOf('zone'), async (ids) =>
    (
      await db
        .select({ id: zone.id })
        .from(zone)
        .where(and(inArray(zone.id, ids), isNull(zone.deleted_at)))
        .all()
    ).map((r) => r.id),
  );
  const states = await existing(db, idsOf('state'), async (ids) =>
    (await db.select({ id: state.id }).from(state).where(inArray(state.id, ids)).all()).map((r) => r.id),
  );
  const countries = await existing(db, idsOf('country'), async (ids) =>
    (await db.select({ id: country.id }).from(country).where(inArray(country.id, ids)).all()).map((r) => r.id),
  );
  const suburbZone = new Map<number, number | null>();
  const suburbIds = [...idsOf('suburb')];
  for (let i = 0; i < suburbIds.length; i += 500) {
    for (const r of await db
      .select({ id: suburb.id, zone: suburb.zone_id })
      .from(suburb)
      .where(inArray(suburb.id, suburbIds.slice(i, i + 500)))
      .all())
      suburbZone.set(r.id, r.zone);
  }

  for (const c of good()) {
    const input = c.input;
    if (taken.has(input.hawb)) reject(c, 'hawb', `a package with hawb ${input.hawb} already exists`);
    if (input.company != null && !liveCompanies.has(input.company))
      reject(c, 'company', `company ${input.company} does not exist or is not active`);
    if (input.zone != null && !zones.has(input.zone)) reject(c, 'zone', `zone ${input.zone} does not exist`);
    if (input.suburb != null && !suburbZone.has(input.suburb)) reject(c, 'suburb', `suburb ${input.suburb} does not exist`);
    if (input.state != null && !states.has(input.state)) reject(c, 'state', `state ${input.state} does not exist`);
    if (input.country != null && !countries.has(input.country)) reject(c, 'country', `country ${input.country} does not exist`);
  }

  const rejectedEarly = candidates.some((c) => c.errors.length > 0);
  const located = Object.fromEntries(PRECISIONS.map((p) => [p, 0])) as Record<Precision, number>;
  let job: number | null = null;
  let unpriced = 0;
  if (!rejectedEarly || opts.partial) {
    ({ job, unpriced } = await insertRows(deps, user, good(), located));
    await saveUploadWindows(db, deps.clock.now(), windows, candidates);
  }

  const rejected = candidates.filter((c) => c.errors.length > 0);
  if (rejected.length && !opts.partial) {
    // Nothing of this call survives: the route's transaction rolls back what insertRows wrote.
    for (const c of candidates) c.id = null;
    throw new ApiError(
      400,
      'validation_error',
      `${rejected.length} of ${candidates.length} row(s) rejected; nothing was imported (send ?partial=true to import the good rows)`,
      rejected.slice(0, 100).flatMap((c) => c.errors.map((e) => ({ path: `row ${c.row}.${e.path}`, message: e.message }))),
      { created: 0, rejected: rejected.length, report: rejected.map(reportRow) },
    );
  }
  return {
    created: candidates.length - rejected.length,
    rejected: rejected.length,
    unpriced,
    report: candidates.map(reportRow),
    located,
    geocode_job: job,
  };
}

function reportRow(c: Candidate): UploadReportRow {
  return { row: c.row, hawb: c.hawb, status: c.errors.length ? 'rejected' : 'created', id: c.id, errors: c.errors };
}

/** API field -> column where they differ (`zone` -> `zone_id`). */
const COLUMN_OF: Partial<Record<Field, keyof typeof pkg.$inferInsert>> = {
  company: 'company_id',
  zone: 'zone_id',
  suburb: 'suburb_id',
  state: 'state_id',
  country: 'country_id',
};
/** Input fields kept beside the parcel rather than in its row (the recipient's e-mail: package_recipient). */
const ELSEWHERE = new Set<string>(['recipient_email', 'cod_amount_cents', 'proof_requirements']);
const INSERT_COLUMNS: (keyof typeof pkg.$inferInsert)[] = [
  ...[...WRITABLE].filter((f) => !ELSEWHERE.has(f)).map((f) => COLUMN_OF[f as Field] ?? (f as keyof typeof pkg.$inferInsert)),
  'status',
  'volume_weighted',
  'created_at',
  'updated_at',
];

/**
 * Parcels per INSERT. Each statement of a unit copies every page it changes into the unit's undo
 * journal first, whatever the statements before it copied; a parcel's row touches ~11 pages (its
 * table's last page, each index's, its stored answer's), so one INSERT per row journaled ~44 KB per
 * parcel, GBs for a large file (docs/decisions-data-layer.md, "Small units keep their undo journal
 * in memory"). One INSERT per chunk journals those pages once. 100 rows of 51 columns stay far
 * below either engine's limit on bound values (32,766 on SQLite, 65,535 on PostgreSQL).
 */
const INSERT_CHUNK = 100;

/**
 * The parcels and their pricing states go in one INSERT each per chunk; the rest (the charge, the
 * location, the event and change-feed rows) is written per row with statements built once, as `recordEvent`
 * and `logPackageChange` would for a single create. Each parcel is priced and charged as a single
 * create charges it, in the file's order; a refused charge (a prepaid wallet without the balance)
 * takes its row back out and rejects that row alone.
 */
async function insertRows(
  deps: Deps,
  user: SessionUser,
  rows: (Candidate & { input: PackageCreate })[],
  located: Record<Precision, number>,
): Promise<{ job: number | null; unpriced: number }> {
  const { db } = deps;
  let unpriced = 0;
  const now = deps.clock.now();
  const removePackage = db
    .delete(pkg)
    .where(eq(pkg.id, sql.placeholder('id')))
    .prepare();
  const insertEvent = db
    .insert(packageEvent)
    .values({
      package_id: sql.placeholder('id'),
      action: 'upload',
      from_status: 'created',
      to_status: 'created',
      actor_id: user.id,
      device_id: null,
      occurred_at: now,
      received_at: now,
      latitude: null,
      longitude: null,
      note: null,
      data: null,
    })
    .prepare();
  const insertChange = db
    .insert(changeLog)
    .values({
      entity: 'package',
      entity_id: sql.placeholder('id'),
      op: 'upsert',
      driver_id: null,
      company_id: sql.placeholder('company'),
      created_at: now,
    })
    .prepare();
  const charger = uploadCharger(deps, user.id);
  // One resolver for the whole file: each postcode and suburb is looked up once.
  const resolver = resolverFor(deps);
  let job: number | null = null;
  const blank: Record<string, unknown> = {
    ...Object.fromEntries(INSERT_COLUMNS.map((col) => [col, null])),
    sac: false,
    status: 'created',
    created_at: now,
    updated_at: now,
  };

  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const ready: {
      c: Candidate & { input: PackageCreate };
      params: Record<string, unknown>;
      where: Awaited<ReturnType<typeof resolver.resolve>>;
      cost: Awaited<ReturnType<typeof charger.price>>;
      companyId: number | null;
    }[] = [];
    for (const c of rows.slice(start, start + INSERT_CHUNK)) {
      const params: Record<string, unknown> = { ...blank };
      for (const [field, value] of Object.entries(c.input))
        if (value !== undefined && !ELSEWHERE.has(field)) params[COLUMN_OF[field as Field] ?? field] = value;
      if (c.input.cod_amount_cents != null && c.input.company == null) {
        c.errors.push({ path: 'cod_amount_cents', message: "cash on delivery needs the parcel's company" });
        continue;
      }
      params.volume_weighted = volumetricWeight(c.input.length, c.input.width, c.input.height);
      // As for a single create: located by the one resolver, so the zone (and the price read from it) is the same.
      let where;
      try {
        where = await resolver.resolve(locationInput(params as Partial<typeof pkg.$inferInsert>));
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        c.errors.push(...(err.errors.length ? err.errors : [{ path: 'row', message: err.message }]));
        continue;
      }
      applyResolution(params as Partial<typeof pkg.$inferInsert>, where);
      const companyId = c.input.company ?? null;
      const cost = await charger.price({
        company_id: companyId,
        zone_id: where.zone_id,
        pkg_type: c.input.pkg_type ?? null,
        weight: c.input.weight ?? null,
        length: c.input.length ?? null,
        width: c.input.width ?? null,
        height: c.input.height ?? null,
      });
      if (cost) params.price = cost.price;
      // No rate line fits: the company's terms say refuse (a row error) or accept it unpriced (listed for the office).
      if (!cost && companyId != null && (await companyPolicy(db, companyId)).unpriced_policy === 'refuse') {
        c.errors.push({
          path: 'rate',
          message: unpricedRefusal({ hawb: c.input.hawb, zone_id: where.zone_id, weight: c.input.weight ?? null, company_id: companyId })
            .message,
        });
        continue;
      }
      ready.push({ c, params, where, cost, companyId });
    }
    if (!ready.length) continue;
    // RETURNING's order is not promised: the hawb (unique, checked above) says which id is whose.
    const ids = new Map(
      (
        await db
          .insert(pkg)
          .values(ready.map((r) => r.params as typeof pkg.$inferInsert))
          .returning({ id: pkg.id, hawb: pkg.hawb })
          .all()
      ).map((r) => [r.hawb, r.id]),
    );
    const states: NewState[] = [];
    for (const { c, where, cost, companyId } of ready) {
      const id = ids.get(c.input.hawb);
      if (id === undefined) throw new Error(`upload: insert of ${c.input.hawb} returned nothing`);
      if (cost && companyId != null) {
        try {
          await charger.charge(companyId, id, c.input.hawb, cost.cents);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          await removePackage.run({ id });
          c.errors.push({ path: 'wallet', message: err.message });
          continue;
        }
      }
      if (companyId != null) {
        states.push({
          packageId: id,
          companyId,
          currency: await charger.currency(companyId),
          state: cost ? 'priced' : 'unpriced',
          cents: cost ? cost.cents : null,
          reason: cost ? '' : 'no_rate_line',
        });
        if (!cost) unpriced += 1;
      }
      c.id = id;
      if (c.input.cod_amount_cents != null)
        await setCodAmount(db, now, { id, hawb: c.input.hawb, company_id: companyId }, c.input.cod_amount_cents);
      if (c.input.proof_requirements) await setParcelRequirements(db, now, id, c.input.proof_requirements);
      // The recipient's e-mail from the `recipient_email` column (issue 36: 0 of 60 were kept).
      if (c.input.recipient_email) await setRecipientEmail(db, now, id, c.input.recipient_email);
      if (where.pending && job == null) job = await openGeocodeJob(db, user, now);
      await recordLocation(db, id, where, now, where.pending ? job : null);
      located[where.precision] += 1;
      await insertEvent.run({ id });
      await insertChange.run({ id, company: companyId });
    }
    await writeNewStates(db, now, states);
  }
  await enqueueCreated(
    db,
    now,
    rows.flatMap((c) => (c.id != null ? [c.id] : [])),
  );
  return { job, unpriced };
}
