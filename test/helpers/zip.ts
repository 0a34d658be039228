import { crc32, deflateRawSync } from 'node:zlib';
import { zipOf } from '../../server/services/uploads/zipEntries';

/** A plain zip (deflate, no zip64), so a test can build any .xlsx an attacker could. */
export function zip(files: Record<string, string | Uint8Array>): Uint8Array {
  return zipOf(
    Object.entries(files).map(([name, content]) => {
      const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
      return { name, method: 8, crc: crc32(data), inflated: data.length, data: deflateRawSync(data, { level: 9 }) };
    }),
  );
}

/** A minimal valid .xlsx whose first sheet's <sheetData> is `sheetData` (rows of inline strings or numbers). */
export function xlsxOf(sheetData: string, dimension = 'A1'): Uint8Array {
  return zip({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="${dimension}"/><sheetData>${sheetData}</sheetData></worksheet>`,
  });
}

/** `<row>` XML of inline-string cells, the way a hostile generator writes them. */
export function rowXml(r: number, cells: string[]): string {
  const col = (i: number) => {
    let n = i + 1;
    let s = '';
    while (n > 0) {
      const m = (n - 1) % 26;
      s = String.fromCharCode(65 + m) + s;
      n = Math.floor((n - 1) / 26);
    }
    return s;
  };
  return `<row r="${r}">${cells.map((v, i) => `<c r="${col(i)}${r}" t="inlineStr"><is><t>${v}</t></is></c>`).join('')}</row>`;
}
