import ExcelJS from 'exceljs';
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readXlsx } from '../../server/services/packages/sheet';
import { xlsxInReadingOrder } from '../../server/services/uploads/xlsxOrder';
import { zipDirectory } from '../../server/services/uploads/zipEntries';
import { zip } from '../helpers/zip';

/** A workbook as Excel and exceljs store it: the sheet before the shared strings, the workbook part last. */
async function stored(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Parcels');
  wb.addWorksheet('Notes').addRow(['not read']);
  ws.addRow(['hawb', 'customer_name', 'weight', 'delivery_date']);
  ws.addRow(['XL-1', { richText: [{ text: 'Ada ' }, { text: 'Lovelace' }] }, 2, new Date(Date.UTC(2030, 0, 2))]);
  ws.addRow([12345, 'Bob', { formula: '1+1', result: 2 }, null]);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('an .xlsx is given to the streaming reader in the order it reads safely', () => {
  it('puts the workbook parts before the first sheet and leaves the rest out', async () => {
    const bytes = await stored();
    const storedNames = Object.keys(unzipSync(bytes));
    // The premise: the sheet comes before the parts it needs (the order that lost entries).
    expect(storedNames.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(storedNames.indexOf('xl/workbook.xml'));

    const ordered = xlsxInReadingOrder(bytes, zipDirectory(bytes)!);
    expect(ordered).not.toBeNull();
    const parts = unzipSync(ordered!);
    expect(Object.keys(parts)).toEqual([
      'xl/_rels/workbook.xml.rels',
      'xl/workbook.xml',
      'xl/sharedStrings.xml',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const original = unzipSync(bytes);
    for (const [name, data] of Object.entries(parts)) expect(data, name).toEqual(original[name]);
  });

  it('reads the same rows every time (it failed about 1 read in 500 when the sheet went through a temp file)', async () => {
    const bytes = await stored();
    const first = await readXlsx(bytes);
    expect(first).toEqual({
      header: ['hawb', 'customer_name', 'weight', 'delivery_date'],
      rows: [
        { row: 2, cells: ['XL-1', 'Ada Lovelace', 2, new Date(Date.UTC(2030, 0, 2))] },
        { row: 3, cells: [12345, 'Bob', 2] },
      ],
    });
    const failures: string[] = [];
    for (let i = 0; i < 600; i += 1) {
      try {
        expect(await readXlsx(bytes)).toEqual(first);
      } catch (err) {
        failures.push(`read ${i}: ${(err as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a part longer than the zip declares is read whole, not cut short', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Parcels');
    ws.addRow(['hawb', 'customer_name']);
    for (let i = 0; i < 50; i += 1) ws.addRow([`H-${i}`, `Customer ${i}`]);
    const parts = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()));
    const bytes = zipSync(parts);
    // Halve the shared strings' declared size, in the local header and the directory alike.
    const size = parts['xl/sharedStrings.xml']!.length;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let patched = 0;
    for (let i = 0; i + 30 < bytes.length; i += 1) {
      const sig = view.getUint32(i, true);
      const field = sig === 0x04034b50 ? i + 22 : sig === 0x02014b50 ? i + 24 : -1;
      if (field >= 0 && view.getUint32(field, true) === size) {
        view.setUint32(field, size >> 1, true);
        patched += 1;
      }
    }
    expect(patched).toBe(2);
    // Inflated into its declared size (as fflate's unzipSync does), the table lost its second half
    // and 27 rows came back empty, silently. Copied compressed, it is inflated to its end.
    const sheet = await readXlsx(bytes);
    expect(sheet.rows).toHaveLength(50);
    expect(sheet.rows[49]).toEqual({ row: 51, cells: ['H-49', 'Customer 49'] });
  });

  it('a workbook without shared strings, one without a worksheet, and one without a workbook part', async () => {
    const book = '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>';
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>hawb</t></is></c></row><row r="2"><c r="A2"><v>7</v></c></row></sheetData></worksheet>';
    expect(
      await readXlsx(zip({ 'xl/worksheets/sheet1.xml': sheet, 'xl/workbook.xml': book, 'xl/_rels/workbook.xml.rels': '<Relationships/>' })),
    ).toEqual({ header: ['hawb'], rows: [{ row: 2, cells: [7] }] });
    await expect(readXlsx(zip({ 'xl/workbook.xml': book }))).rejects.toMatchObject({
      status: 400,
      message: 'The workbook has no worksheet',
    });
    await expect(readXlsx(zip({ 'xl/worksheets/sheet1.xml': sheet }))).rejects.toMatchObject({
      status: 400,
      message: 'The file is not a readable .xlsx workbook',
    });

    // A sheet whose compressed bytes are garbage is refused, not waited on until the worker's time limit.
    const good = zip({ 'xl/workbook.xml': book, 'xl/worksheets/sheet1.xml': sheet.repeat(20) });
    const names = Object.keys(unzipSync(good));
    expect(names).toEqual(['xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    const broken = good.slice();
    const at = Buffer.from(broken).indexOf('xl/worksheets/sheet1.xml') + 'xl/worksheets/sheet1.xml'.length;
    broken.fill(0xff, at, at + 40);
    const started = Date.now();
    await expect(readXlsx(broken)).rejects.toMatchObject({ status: 400, message: 'The file is not a readable .xlsx workbook' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
