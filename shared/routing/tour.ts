/**
 * Array tour with a position index: O(1) next/prev/between tests, and moves touch only the
 * stretch of array they change. Positions are cyclic.
 */
export class Tour {
  readonly n: number;
  /** Node at each position. */
  readonly t: Int32Array;
  /** Position of each node. */
  readonly pos: Int32Array;
  /**
   * Lowest position written since the owner last reset it to n; lets position-indexed
   * caches (prefix sums) be refreshed from there instead of from scratch.
   */
  dirtyFrom = 0;
  private readonly scratch: Int32Array;

  constructor(order: ArrayLike<number>) {
    this.n = order.length;
    this.t = Int32Array.from(order);
    this.pos = new Int32Array(this.n);
    this.scratch = new Int32Array(this.n);
    this.reindex();
  }

  next(v: number): number {
    const p = this.pos[v] + 1;
    return this.t[p === this.n ? 0 : p];
  }

  prev(v: number): number {
    const p = this.pos[v];
    return this.t[p === 0 ? this.n - 1 : p - 1];
  }

  load(from: Int32Array): void {
    const { n, t, pos } = this;
    // Plain loop: TypedArray#set has a fixed overhead that dominates at a few hundred nodes.
    // Writing only what differs keeps dirtyFrom (and so cache refreshes) as late as possible.
    let first = n;
    for (let i = 0; i < n; i++) {
      const v = from[i];
      if (t[i] !== v) {
        t[i] = v;
        pos[v] = i;
        if (first === n) first = i;
      }
    }
    if (first < this.dirtyFrom) this.dirtyFrom = first;
  }

  saveTo(into: Int32Array): void {
    const { n, t } = this;
    for (let i = 0; i < n; i++) into[i] = t[i];
  }

  cost(d: Float64Array): number {
    const { n, t } = this;
    let c = d[t[n - 1] * n + t[0]];
    for (let i = 1; i < n; i++) c += d[t[i - 1] * n + t[i]];
    return c;
  }

  /** Reverses positions i..j inclusive, walking forward (cyclically) from i. */
  reverse(i: number, j: number): void {
    const { n, t, pos } = this;
    const len = ((j - i + n) % n) + 1;
    this.markDirty(i, len);
    let a = i;
    let b = j;
    for (let k = len >> 1; k > 0; k--) {
      const va = t[a];
      const vb = t[b];
      t[a] = vb;
      pos[vb] = a;
      t[b] = va;
      pos[va] = b;
      a = a + 1 === n ? 0 : a + 1;
      b = b === 0 ? n - 1 : b - 1;
    }
  }

  /**
   * 2-opt: x2 = next(x1), y2 = next(y1); replaces edges (x1,x2),(y1,y2) with (x1,y1),(x2,y2).
   * `keepDirection` forces reversing x2..y1 itself; otherwise the shorter side is reversed,
   * which yields the same cycle traversed the other way (fine only for symmetric costs).
   */
  twoOptMove(x1: number, x2: number, y1: number, y2: number, keepDirection: boolean): void {
    const { n, pos } = this;
    const inner = ((pos[y1] - pos[x2] + n) % n) + 1;
    if (keepDirection || inner * 2 <= n) this.reverse(pos[x2], pos[y1]);
    else this.reverse(pos[y2], pos[x1]);
  }

  /**
   * Moves the `len` nodes starting at position i to sit between c and next(c), optionally
   * reversed. Shifts whichever side of the tour is shorter; the cyclic order is the same.
   */
  moveSegment(i: number, len: number, c: number, reversed: boolean): void {
    const { n, t, pos, scratch } = this;
    for (let k = 0; k < len; k++) scratch[k] = t[(i + k) % n];
    const segEnd = (i + len - 1) % n;
    const ahead = (pos[c] - segEnd + n) % n;
    const behind = n - len - ahead;
    let dest: number;
    if (ahead <= behind) {
      for (let k = 0; k < ahead; k++) {
        const v = t[(i + len + k) % n];
        const p = (i + k) % n;
        t[p] = v;
        pos[v] = p;
      }
      dest = (i + ahead) % n;
      this.markDirty(i, ahead + len);
    } else {
      dest = (i - behind + n) % n;
      this.markDirty(dest, behind + len);
      for (let k = behind - 1; k >= 0; k--) {
        const v = t[(dest + k) % n];
        const p = (dest + k + len) % n;
        t[p] = v;
        pos[v] = p;
      }
    }
    for (let k = 0; k < len; k++) {
      const v = scratch[reversed ? len - 1 - k : k];
      const p = (dest + k) % n;
      t[p] = v;
      pos[v] = p;
    }
  }

  private markDirty(from: number, len: number): void {
    const lowest = from + len > this.n ? 0 : from;
    if (lowest < this.dirtyFrom) this.dirtyFrom = lowest;
  }

  private reindex(): void {
    for (let i = 0; i < this.n; i++) this.pos[this.t[i]] = i;
  }
}
