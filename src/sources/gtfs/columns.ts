/**
 * Growable typed columns: the poller keeps ~1M stop calls between decoding and writing, and as
 * numbers in typed arrays they cost a few bytes each and nothing to the garbage collector
 * (as small strings or arrays they cost gigabytes of GC work per poll).
 */
export const NONE = -2147483648;

export class IntColumns {
  length = 0;
  private cols: Int32Array[];

  constructor(readonly width: number, capacity = 1024) {
    if (width < 1 || width > 8) throw new Error('IntColumns holds 1 to 8 columns');
    this.cols = Array.from({ length: width }, () => new Int32Array(capacity));
  }

  /** Appends one row; positional to spare an array per row. */
  push(a: number, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0): number {
    if (this.length === this.cols[0].length) {
      this.cols = this.cols.map((col) => {
        const next = new Int32Array(col.length * 2);
        next.set(col);
        return next;
      });
    }
    const r = this.length, cols = this.cols, w = this.width;
    cols[0][r] = a;
    if (w > 1) cols[1][r] = b;
    if (w > 2) cols[2][r] = c;
    if (w > 3) cols[3][r] = d;
    if (w > 4) cols[4][r] = e;
    if (w > 5) cols[5][r] = f;
    if (w > 6) cols[6][r] = g;
    if (w > 7) cols[7][r] = h;
    return this.length++;
  }

  get(row: number, col: number): number { return this.cols[col][row]; }
}

/** An int32 value or null, through the NONE sentinel. */
export const orNone = (v: number | null): number => (v === null ? NONE : v);
export const fromNone = (v: number): number | null => (v === NONE ? null : v);
