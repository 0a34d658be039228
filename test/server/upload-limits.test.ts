import { describe, expect, it } from 'vitest';
import { pkg } from '../../server/db/schema/index';
import { makeApp } from '../helpers/app';
import { rowXml, xlsxOf } from '../helpers/zip';

const form = (content: Uint8Array | string, name: string) => {
  const f = new FormData();
  f.append('file', new File([typeof content === 'string' ? content : new Uint8Array(content)], name));
  return f;
};
const header = rowXml(1, ['hawb', 'customer_name']);
/** Identical rows without `r`: a generator's cheapest way to declare an enormous sheet in a small file. */
const filler = (n: number) => '<row><c t="inlineStr"><is><t>HAWB</t></is></c><c t="inlineStr"><is><t>x</t></is></c></row>'.repeat(n);
/** `n` well-formed numbered rows after the header (~60 bytes each). */
const numbered = (n: number) =>
  Array.from({ length: n }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c><c r="B${i + 2}"><v>1</v></c></row>`).join('');

describe('spreadsheet and CSV uploads are read off the request thread, bounded, and stop early', () => {
  it('a small .xlsx honestly declaring ~130 MB is refused unopened', async () => {
    const t = await makeApp();
    const co = await t.login('company');
    const bomb = xlsxOf(header + filler(1_300_000), 'A1:B1300001');
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const res = await t.json<{ code: string; message: string }>(
      'POST',
      '/api/company-package/excel-upload/',
      co.token,
      form(bomb, 'p.xlsx'),
    );
    expect(res.status).toBe(413);
    expect(res.body.message).toContain('unpacks to more');
    expect(await t.db.select().from(pkg).all()).toHaveLength(0);
  });

  it('a sheet of 200k rows under the unpacked bound stops at the row limit, while another user is answered', async () => {
    const t = await makeApp();
    const co = await t.login('company');
    const other = await t.login('admin');
    const file = xlsxOf(header + numbered(200_000), 'A1:B200001');
    let finished = false;
    const upload = t.json<{ message: string }>('POST', '/api/company-package/excel-upload/', co.token, form(file, 'p.xlsx')).finally(() => {
      finished = true;
    });
    // Several answers to someone else come back while the file is still being read.
    for (let i = 0; i < 3; i += 1) {
      const me = await t.json<{ email: string }>('GET', '/api/profile/', other.token);
      expect(me.status).toBe(200);
      expect(me.body.email).toBe(other.email);
    }
    expect(finished).toBe(false);
    const res = await upload;
    expect(res.status).toBe(413);
    expect(res.body.message).toContain('at most 50000 rows');
    expect(t.app.deps.sheets.busy).toBe(0);
  });

  it('columns, cell size and rows are bounded in CSV and .xlsx alike', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const wide = `hawb,${Array.from({ length: 300 }, (_, i) => `c${i}`).join(',')}\nA,1\n`;
    const fat = `hawb,customer_name\nA,${'x'.repeat(20_000)}\n`;
    const long = `hawb\n${Array.from({ length: 50_001 }, (_, i) => `H${i}`).join('\n')}\n`;
    for (const [name, csv, words] of [
      ['wide', wide, 'columns'],
      ['fat', fat, ''],
      ['long', long, 'rows'],
    ] as const) {
      const res = await t.json<{ message: string }>('POST', '/api/package/bulk-upload/', admin.token, form(csv, `${name}.csv`));
      expect([name, res.status]).toEqual([name, 413]);
      expect(res.body.message).toContain(words);
    }
    const wideXlsx = xlsxOf(rowXml(1, ['hawb', ...Array.from({ length: 300 }, (_, i) => `c${i}`)]));
    expect((await t.json('POST', '/api/package/excel-upload/', admin.token, form(wideXlsx, 'w.xlsx'))).status).toBe(413);
    const fatXlsx = xlsxOf(header + rowXml(2, ['A', 'y'.repeat(20_000)]));
    expect((await t.json('POST', '/api/package/excel-upload/', admin.token, form(fatXlsx, 'f.xlsx'))).status).toBe(413);
    // The geo sheet upload has the same bounds.
    expect((await t.json('POST', '/api/pincode/bulk-upload/', admin.token, form(wide, 'g.csv'))).status).toBe(413);
    // A sound file still goes through the same path.
    const ok = await t.json<{ created: number }>(
      'POST',
      '/api/package/excel-upload/',
      admin.token,
      form(xlsxOf(header + rowXml(2, ['OK-1', 'Ann'])), 'ok.xlsx'),
    );
    expect([ok.status, ok.body.created]).toEqual([200, 1]);
  });

  it('more files at once than readers answers 503 with Retry-After; a slot frees when a file is done', async () => {
    const t = await makeApp({ config: { uploadParsers: 1 } });
    const admin = await t.login('admin');
    const big = t.json('POST', '/api/package/excel-upload/', admin.token, form(xlsxOf(header + numbered(200_000)), 'big.xlsx'));
    const small = () => t.call('POST', '/api/package/bulk-upload/', admin.token, form('hawb\nS-1\n', 's.csv'));
    const busy = await small();
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect((await big).status).toBe(413);
    expect((await small()).status).toBe(200);
  });

  it('a file not read in time is refused and its worker stopped', async () => {
    const t = await makeApp({ config: { uploadParseTimeoutMs: 1 } });
    const admin = await t.login('admin');
    const res = await t.json<{ message: string }>('POST', '/api/package/bulk-upload/', admin.token, form('hawb\nT-1\n', 't.csv'));
    expect(res.status).toBe(413);
    expect(res.body.message).toContain('too long');
    expect(t.app.deps.sheets.busy).toBe(0);
  });
});
