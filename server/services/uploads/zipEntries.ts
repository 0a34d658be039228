/**
 * A zip's entries as its central directory declares them, and a zip made of chosen entries copied
 * as they are (still compressed). No library offers that copy: the zip libraries here inflate and
 * deflate again, which for an upload's worksheet is most of the cost of reading it.
 */
export interface ZipEntry {
  name: string;
  crc: number;
  /** Uncompressed size; Infinity for zip64 (0xffffffff here), far beyond any sane spreadsheet. */
  inflated: number;
  compressed: number;
  method: number;
  flags: number;
  /** Where the entry's local header starts. */
  offset: number;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const ENCRYPTED = 0x1; // flag bit 0

/** The central directory's entries; null when there is no readable directory. */
export function zipDirectory(b: Uint8Array): ZipEntry[] | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const stop = Math.max(0, b.length - 22 - 0xffff);
  for (let eocd = b.length - 22; eocd >= stop; eocd -= 1) {
    if (view.getUint32(eocd, true) !== END) continue;
    const count = view.getUint16(eocd + 10, true);
    let at = view.getUint32(eocd + 16, true);
    const entries: ZipEntry[] = [];
    for (let n = 0; n < count; n += 1) {
      if (at + 46 > b.length || view.getUint32(at, true) !== CENTRAL) return null;
      const nameLength = view.getUint16(at + 28, true);
      if (at + 46 + nameLength > b.length) return null;
      const inflated = view.getUint32(at + 24, true);
      entries.push({
        name: Buffer.from(b.buffer, b.byteOffset + at + 46, nameLength).toString('utf8'),
        crc: view.getUint32(at + 16, true),
        inflated: inflated === 0xffffffff ? Infinity : inflated,
        compressed: view.getUint32(at + 20, true),
        method: view.getUint16(at + 10, true),
        flags: view.getUint16(at + 8, true),
        offset: view.getUint32(at + 42, true),
      });
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return entries;
  }
  return null;
}

/** An entry's compressed bytes, found through its local header; null when they are not where the directory says. */
export function entryData(b: Uint8Array, e: ZipEntry): Uint8Array | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (e.flags & ENCRYPTED || e.offset + 30 > b.length || view.getUint32(e.offset, true) !== LOCAL) return null;
  const start = e.offset + 30 + view.getUint16(e.offset + 26, true) + view.getUint16(e.offset + 28, true);
  return start + e.compressed <= b.length ? b.subarray(start, start + e.compressed) : null;
}

export interface ZipPart {
  name: string;
  method: number;
  crc: number;
  inflated: number;
  data: Uint8Array;
}

/** A zip of `parts` in this order, each copied as given, with its sizes in its local header. */
export function zipOf(parts: readonly ZipPart[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    // Sizes up front, never in a descriptor after the data (flag bit 3 off); UTF-8 names (bit 11).
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(p.method, 8);
    local.writeUInt32LE(p.crc, 14);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(p.inflated, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(CENTRAL, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x800, 8);
    entry.writeUInt16LE(p.method, 10);
    entry.writeUInt32LE(p.crc, 16);
    entry.writeUInt32LE(p.data.length, 20);
    entry.writeUInt32LE(p.inflated, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    chunks.push(local, name, p.data);
    central.push(entry, name);
    offset += 30 + name.length + p.data.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...chunks, dir, end]));
}
