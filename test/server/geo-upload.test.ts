import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pincode, suburb } from '../../server/db/schema/index';
import { makeApp, type TestApp } from '../helpers/app';
import { create, seedChain, type GeoChain } from './geo-helpers';

interface Report {
  row: number;
  status: string;
  reason: string | null;
  code: string | null;
  id: number | null;
}
interface Answer {
  success: boolean;
  created: number;
  updated: number;
  rejected: number;
  report: Report[];
}
interface Refusal {
  code: string;
  message: string;
  errors: { path: string; message: string }[];
  details: Answer & { applied: boolean };
}

interface World extends GeoChain {
  t: TestApp;
  token: string;
  vic: number;
  richmondNsw: number;
  richmondVic: number;
  west: number;
}

/** Bondi (NSW, zone East, pincode 2026) plus a Richmond in both NSW and Victoria, and an empty zone West. */
async function world(): Promise<World> {
  const t = await makeApp();
  const { token } = await t.login('admin');
  const chain = await seedChain(t, token);
  const vic = await create(t, token, 'state', { name: 'Victoria', code: 'VIC', country: chain.country });
  const richmondNsw = await create(t, token, 'suburb', { name: 'Richmond', state: chain.state, postcode: '2753' });
  const richmondVic = await create(t, token, 'suburb', { name: 'Richmond', state: vic, postcode: '3121' });
  const west = await create(t, token, 'zone', { name: 'West', code: 'W1' });
  return { ...chain, t, token, vic, richmondNsw, richmondVic, west };
}

function upload(w: World, content: BlobPart, name = 'pincodes.csv', query = '') {
  const form = new FormData();
  form.set('file', new File([content], name));
  return w.t.json<Answer & Refusal>('POST', `/api/pincode/bulk-upload/${query}`, w.token, form);
}

async function xlsx(rows: (string | number | null)[][]): Promise<Uint8Array<ArrayBuffer>> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Pincodes');
  for (const r of rows) sheet.addRow(r);
  return new Uint8Array(await book.xlsx.writeBuffer()).slice();
}

/** A zip whose directory declares one member of `size` bytes: what a decompression bomb looks like before it is opened. */
function inflatingZip(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(30 + 46 + 22);
  const v = new DataView(bytes.buffer);
  v.setUint32(0, 0x04034b50, true);
  v.setUint32(30, 0x02014b50, true);
  v.setUint32(30 + 24, size, true);
  v.setUint32(76, 0x06054b50, true);
  v.setUint16(76 + 8, 1, true);
  v.setUint16(76 + 10, 1, true);
  v.setUint32(76 + 12, 46, true);
  v.setUint32(76 + 16, 30, true);
  return bytes;
}

const pincodeCount = async (w: World) => (await w.t.db.select().from(pincode).all()).length;
const zoneOf = async (w: World, id: number) => (await w.t.db.select().from(suburb).where(eq(suburb.id, id)).get())?.zone_id;

const GOOD_CSV = 'Postcode,Suburb,State,Zone\n2026,Bondi,NSW,\n2000,bondi,,\n3121,Richmond,VIC,West\n';
const MIXED_CSV = [
  'code,suburb,state,zone',
  '2001,Bondi,,', // 2: good
  '3000,Nowhere,,', // 3: unknown suburb
  '2753,Richmond,,', // 4: ambiguous without a state
  '20;01,Bondi,,', // 5: bad code
  '2002,Bondi,,Atlantis', // 6: unknown zone
  '2001,Bondi,,', // 7: repeats row 2
  '2003,Bondi,Tasmania,', // 8: unknown state
  '2753,Richmond,NSW,W1', // 9: good, moves Richmond NSW into West
].join('\n');

describe('pincode bulk upload', () => {
  it('applies a clean CSV and reports every row', async () => {
    const w = await world();
    const res = await upload(w, GOOD_CSV);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, created: 2, updated: 1, rejected: 0 });
    expect(res.body.report.map((r) => [r.row, r.status, r.code])).toEqual([
      [2, 'updated', '2026'],
      [3, 'created', '2000'],
      [4, 'created', '3121'],
    ]);
    expect(res.body.report[0].id).toBe(w.pincode);
    expect(await zoneOf(w, w.richmondVic)).toBe(w.west);
    const pins = await w.t.json<{ count: number; results: { code: string; suburb: number }[] }>(
      'GET',
      `/api/pincode/?suburb=${w.suburb}&ordering=code`,
      w.token,
    );
    expect(pins.body.results.map((p) => p.code)).toEqual(['2000', '2026']);

    // The same file again changes nothing new: every row is an update.
    const again = await upload(w, GOOD_CSV);
    expect(again.body).toMatchObject({ created: 0, updated: 3, rejected: 0 });
  });

  it("refuses a CSV with any bad row, applying nothing, and names each row's reason", async () => {
    const w = await world();
    const before = await pincodeCount(w);
    const res = await upload(w, MIXED_CSV);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details).toMatchObject({ applied: false, created: 2, updated: 0, rejected: 6 });
    const byRow = new Map(res.body.details.report.map((r) => [r.row, r]));
    expect(byRow.get(2)?.status).toBe('created');
    expect(byRow.get(3)?.reason).toContain('unknown suburb "Nowhere"');
    expect(byRow.get(4)?.reason).toContain(`ids ${w.richmondNsw}, ${w.richmondVic}`);
    expect(byRow.get(5)?.reason).toContain('20;01');
    expect(byRow.get(6)?.reason).toContain('unknown zone "Atlantis"');
    expect(byRow.get(7)?.reason).toContain('repeats row 2');
    expect(byRow.get(8)?.reason).toContain('unknown state "Tasmania"');
    expect(res.body.errors.map((e) => e.path)).toEqual(['row 3', 'row 4', 'row 5', 'row 6', 'row 7', 'row 8']);
    expect(await pincodeCount(w)).toBe(before);
    expect(await zoneOf(w, w.richmondNsw)).toBeNull();
  });

  it('applies the good rows of a CSV with ?partial=true', async () => {
    const w = await world();
    const before = await pincodeCount(w);
    const res = await upload(w, MIXED_CSV, 'p.csv', '?partial=true');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 0, rejected: 6 });
    expect(res.body.report.filter((r) => r.status === 'created').map((r) => r.row)).toEqual([2, 9]);
    expect(res.body.report.find((r) => r.row === 9)?.reason).toContain(`moved to zone ${w.west}`);
    expect(await pincodeCount(w)).toBe(before + 2);
    expect(await zoneOf(w, w.richmondNsw)).toBe(w.west);
    expect((await upload(w, MIXED_CSV, 'p.csv', '?partial=maybe')).status).toBe(400);
  });

  it('reads an .xlsx workbook: numbers, ids and zone codes, all or nothing and partial', async () => {
    const w = await world();
    const good = await xlsx([
      ['Pincode', 'Suburb ID', 'Zone'],
      [2010, w.suburb, 'E1'],
      ['3122', w.richmondVic, 'w1'],
    ]);
    const res = await upload(w, good, 'codes.xlsx');
    expect(res.status).toBe(200);
    expect(res.body.report.map((r) => [r.row, r.status, r.code])).toEqual([
      [2, 'created', '2010'],
      [3, 'created', '3122'],
    ]);
    expect(await zoneOf(w, w.richmondVic)).toBe(w.west);

    const before = await pincodeCount(w);
    const mixed = await xlsx([
      ['code', 'suburb', 'state'],
      [2011, 'Bondi', 'NSW'],
      [null, null, null],
      [2012, 'Bondi', 'VIC'],
      [2013, 9999, null],
    ]);
    const refused = await upload(w, mixed, 'codes.xlsx');
    expect(refused.status).toBe(400);
    expect(refused.body.details.report.map((r) => [r.row, r.status])).toEqual([
      [2, 'created'],
      [4, 'rejected'],
      [5, 'rejected'],
    ]);
    expect(refused.body.details.report[1].reason).toContain(`unknown suburb "Bondi" in state ${w.vic}`);
    expect(refused.body.details.report[2].reason).toContain('unknown suburb 9999');
    expect(await pincodeCount(w)).toBe(before);
    const partial = await upload(w, mixed, 'codes.xlsx', '?partial=1');
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    expect(partial.body).toMatchObject({ created: 1, rejected: 2 });
    expect(await pincodeCount(w)).toBe(before + 1);
  });

  it('brings an archived pincode back when a file names it', async () => {
    const w = await world();
    await w.t.json('POST', '/api/pincode/archive-pincode/', w.token, { deleted: [w.pincode] });
    const res = await upload(w, 'code,suburb\n2026,Bondi\n');
    expect(res.body.report[0]).toMatchObject({ status: 'updated', id: w.pincode, reason: 'restored from the archive' });
    expect((await w.t.json<{ count: number }>('GET', '/api/pincode/archive-pincode-list/', w.token)).body.count).toBe(0);
  });

  it('decides the type by content and bounds size and rows', async () => {
    const w = await world();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect((await upload(w, png, 'pincodes.csv')).status).toBe(415);
    expect((await upload(w, new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'old.xls')).status).toBe(415);
    expect((await upload(w, new Uint8Array([0xff, 0xfe, 0x41, 0x42]), 'latin.csv')).status).toBe(415);
    const brokenZip = await upload(w, new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]), 'broken.xlsx');
    expect(brokenZip.status).toBe(400);
    expect(brokenZip.body.code).toBe('validation_error');
    const bomb = await upload(w, inflatingZip(200 * 1024 * 1024), 'bomb.xlsx');
    expect(bomb.status).toBe(413);
    expect(bomb.body.message).toContain('unpacks');
    // A CSV named .xlsx is still a CSV: the name is never trusted.
    expect((await upload(w, 'code;suburb\n2004;Bondi\n', 'named.xlsx')).body).toMatchObject({ created: 1 });
    expect((await upload(w, '\uFEFFcode\tsuburb\n2005\tBondi\n', 'tabs.tsv')).body).toMatchObject({ created: 1 });

    const big = await upload(w, `code,suburb\n${'2000,Bondi,'.padEnd(1000, 'x')}\n`.repeat(5300));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('payload_too_large');
    const many = await upload(w, `code,suburb\n${'2000,Bondi\n'.repeat(50_001)}`);
    expect(many.status).toBe(413);

    const noColumn = await upload(w, 'code,place\n2000,Bondi\n');
    expect(noColumn.status).toBe(400);
    expect(noColumn.body.message).toContain('suburb');
    expect((await upload(w, 'code,suburb\n')).status).toBe(400);
    expect((await upload(w, '')).status).toBe(400);
    expect((await upload(w, 'code,suburb\n"2000,Bondi\n')).status).toBe(400);
    const noFile = new FormData();
    noFile.set('other', 'x');
    expect((await w.t.json('POST', '/api/pincode/bulk-upload/', w.token, noFile)).status).toBe(400);
    expect((await w.t.json('POST', '/api/pincode/bulk-upload/', w.token, { file: 'code,suburb' })).status).toBe(415);
  }, 120_000); // fourteen files, each read in its own worker thread (server/services/uploads/parser.ts)
});
