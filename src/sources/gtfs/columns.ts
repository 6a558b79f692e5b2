/**
 * Growable typed columns: the poller keeps ~1M stop calls between decoding and writing, and as
 * numbers in typed arrays they cost a few bytes each and nothing to the garbage collector
 * (as small strings or arrays they cost gigabytes of GC work per poll).
 *
 * Each column grows by fixed chunks, never by copying: doubling a 16 MB column would hold
 * 48 MB at once, and the freed halves stay in the process as heap fragments (peak RSS is what
 * the poller is held to). A chunk of 64k rows (256 KB) is above glibc's mmap threshold, so a
 * dropped chunk goes back to the system.
 */
export const NONE = -2147483648;

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

export class IntColumns {
  /** Rows in use; lowering it drops the rows above (they are overwritten by later pushes). */
  length = 0;
  private readonly chunks: Int32Array[][];
  private capacity = 0;

  constructor(readonly width: number) {
    if (width < 1 || width > 8) throw new Error('IntColumns holds 1 to 8 columns');
    this.chunks = Array.from({ length: width }, () => []);
  }

  private grow() {
    for (const col of this.chunks) col.push(new Int32Array(CHUNK));
    this.capacity += CHUNK;
  }

  /** Appends one row; positional to spare an array per row. */
  push(a: number, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0): number {
    const r = this.length;
    if (r === this.capacity) this.grow();
    const k = r >>> CHUNK_BITS, i = r & MASK, cols = this.chunks, w = this.width;
    cols[0][k][i] = a;
    if (w > 1) cols[1][k][i] = b;
    if (w > 2) cols[2][k][i] = c;
    if (w > 3) cols[3][k][i] = d;
    if (w > 4) cols[4][k][i] = e;
    if (w > 5) cols[5][k][i] = f;
    if (w > 6) cols[6][k][i] = g;
    if (w > 7) cols[7][k][i] = h;
    return this.length++;
  }

  get(row: number, col: number): number { return this.chunks[col][row >>> CHUNK_BITS][row & MASK]; }
}

/** An int32 value or null, through the NONE sentinel. */
export const orNone = (v: number | null): number => (v === null ? NONE : v);
export const fromNone = (v: number): number | null => (v === NONE ? null : v);
