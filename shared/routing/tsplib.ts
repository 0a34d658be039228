/** Minimal TSPLIB reader: NODE_COORD_SECTION with EUC_2D weights, enough for benchmarks. */
export interface TsplibInstance {
  name: string;
  dimension: number;
  x: number[];
  y: number[];
}

export function parseTsplib(text: string): TsplibInstance {
  const lines = text.split(/\r?\n/);
  let name = '';
  let dimension = 0;
  let type = '';
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === 'NODE_COORD_SECTION') break;
    const m = /^([A-Z_]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'NAME') name = m[2].trim();
    else if (m[1] === 'DIMENSION') dimension = Number(m[2]);
    else if (m[1] === 'EDGE_WEIGHT_TYPE') type = m[2].trim();
  }
  if (type !== 'EUC_2D') throw new RangeError(`TSPLIB: unsupported EDGE_WEIGHT_TYPE "${type}"`);
  if (!Number.isInteger(dimension) || dimension <= 0) throw new RangeError('TSPLIB: missing DIMENSION');
  if (i === lines.length) throw new RangeError('TSPLIB: missing NODE_COORD_SECTION');
  const x = new Array<number>(dimension).fill(NaN);
  const y = new Array<number>(dimension).fill(NaN);
  for (i++; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    if (line === 'EOF' || /^[A-Z_]+/.test(line)) break;
    const [id, xs, ys] = line.split(/\s+/);
    const k = Number(id) - 1;
    if (!(k >= 0 && k < dimension)) throw new RangeError(`TSPLIB: bad node id "${id}"`);
    x[k] = Number(xs);
    y[k] = Number(ys);
  }
  for (let k = 0; k < dimension; k++) {
    if (!Number.isFinite(x[k]) || !Number.isFinite(y[k])) throw new RangeError(`TSPLIB: node ${k + 1} missing`);
  }
  return { name, dimension, x, y };
}

/** TSPLIB's EUC_2D rule: Euclidean distance rounded to the nearest integer. */
export function euc2dMatrix(inst: TsplibInstance): number[][] {
  const { dimension: n, x, y } = inst;
  const m: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = Math.round(Math.hypot(x[i] - x[j], y[i] - y[j]));
      m[i][j] = w;
      m[j][i] = w;
    }
  }
  return m;
}
