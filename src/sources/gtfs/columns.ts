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
  private readonly chunks: (Int32Array | null)[][];
  private readonly fills: (number | undefined)[];
  private capacity = 0;

  readonly width: number;
  /**
   * `sparse` names columns that mostly hold one value (column -> that value): their chunks
   * are only allocated once a row differs. gtfs.de gives delays but rarely absolute times, and
   * few skipped stops, so three of the eight stop-call columns cost nothing there.
   */
  constructor(width: number, sparse: Record<number, number> = {}) {
    this.width = width;
    if (width < 1 || width > 8) throw new Error('IntColumns holds 1 to 8 columns');
    this.chunks = Array.from({ length: width }, () => []);
    this.fills = Array.from({ length: width }, (_, c) => sparse[c]);
  }

  // Column numbers are < width and rows < capacity (grow() runs first), so chunk lookups hit: hence the `!`s.
  private grow() {
    for (let c = 0; c < this.width; c++) this.chunks[c]!.push(this.fills[c] === undefined ? new Int32Array(CHUNK) : null);
    this.capacity += CHUNK;
  }

  private set(c: number, k: number, i: number, v: number) {
    let chunk = this.chunks[c]![k]!;
    if (chunk === null) {
      if (v === this.fills[c]) return;
      chunk = this.chunks[c]![k] = new Int32Array(CHUNK).fill(this.fills[c]!);
    }
    chunk[i] = v;
  }

  /** Appends one row; positional to spare an array per row. */
  push(a: number, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0): number {
    const r = this.length;
    if (r === this.capacity) this.grow();
    const k = r >>> CHUNK_BITS,
      i = r & MASK,
      w = this.width;
    this.set(0, k, i, a);
    if (w > 1) this.set(1, k, i, b);
    if (w > 2) this.set(2, k, i, c);
    if (w > 3) this.set(3, k, i, d);
    if (w > 4) this.set(4, k, i, e);
    if (w > 5) this.set(5, k, i, f);
    if (w > 6) this.set(6, k, i, g);
    if (w > 7) this.set(7, k, i, h);
    return this.length++;
  }

  get(row: number, col: number): number {
    // Callers read rows < length and columns < width; a stored chunk holds CHUNK values.
    const chunk = this.chunks[col]![row >>> CHUNK_BITS]!;
    return chunk === null ? this.fills[col]! : chunk[row & MASK]!;
  }
}
