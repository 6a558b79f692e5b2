import { Transform, type TransformCallback } from 'node:stream';

/**
 * Deflate64 ("enhanced deflate", ZIP compression method 9) as a decoding stream.
 *
 * Windows' built-in ZIP tool writes large members this way, and so does the BBSR's INKAR bulk
 * download. zlib does not read it. @zip.js/zip.js does, but only as a whole ZIP reader of its
 * own, which inflates deflate (every other archive here) slower than zlib and holds more memory;
 * its faster Deflate64 decoder is not a public export (bench/README.md, "ZIP members"). So the
 * one ZIP reader (zip-archive.ts) stays on yauzl and
 * hands Deflate64 members to this decoder.
 * Deflate64 is RFC 1951 deflate with three changes, all here: a 64 KiB window, length code 285
 * meaning 3 + a 16-bit extra (instead of exactly 258), and distance codes 30 and 31 (14 extra
 * bits each, distances up to 65,536). Decoding is table-driven (one lookup per symbol) and
 * resumable: the decoder is a generator that pauses where the input runs out and goes on when
 * the next chunk arrives, so a member of any size streams through in constant memory.
 */

const WINDOW = 1 << 16;
const MASK = WINDOW - 1;
/** Output is handed on in pieces of this size (and at the end). */
const FLUSH_AT = 1 << 15;

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 3];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 16];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577, 32769, 49153,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14];
/** The order in which a dynamic block sends the code lengths of its code-length alphabet. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

export class Inflate64Error extends Error {
  override readonly name = 'Inflate64Error';
}

/** A canonical Huffman code as a lookup table indexed by the next `bits` input bits (LSB first): entry = symbol << 4 | length, -1 for no code. */
interface Huffman {
  table: Int32Array;
  bits: number;
}

function huffman(lengths: ArrayLike<number>, n: number): Huffman {
  const count = new Array<number>(16).fill(0);
  let max = 0;
  for (let s = 0; s < n; s++) {
    const l = lengths[s] ?? 0;
    count[l] = (count[l] ?? 0) + 1;
    if (l > max) max = l;
  }
  count[0] = 0;
  const next = new Array<number>(16).fill(0);
  let code = 0;
  let left = 1;
  for (let l = 1; l <= 15; l++) {
    code = (code + (count[l - 1] ?? 0)) << 1;
    next[l] = code;
    left = (left << 1) - (count[l] ?? 0);
    if (left < 0) throw new Inflate64Error('over-subscribed Huffman code');
  }
  const bits = Math.max(max, 1);
  const table = new Int32Array(1 << bits).fill(-1);
  for (let s = 0; s < n; s++) {
    const l = lengths[s] ?? 0;
    if (l === 0) continue;
    const c = next[l] ?? 0;
    next[l] = c + 1;
    // Codes are sent most significant bit first; the table is indexed by bits in arrival order.
    let rev = 0;
    for (let i = 0; i < l; i++) rev |= ((c >>> i) & 1) << (l - 1 - i);
    for (let i = rev; i < table.length; i += 1 << l) table[i] = (s << 4) | l;
  }
  return { table, bits };
}

const FIXED_LITERALS = huffman(
  Array.from({ length: 288 }, (_, s) => (s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8)),
  288,
);
const FIXED_DISTANCES = huffman(new Array<number>(32).fill(5), 32);

export class Inflate64 extends Transform {
  private input: Buffer = Buffer.alloc(0);
  private pos = 0;
  private bitBuf = 0;
  private bitCnt = 0;
  private ended = false;
  private readonly window = new Uint8Array(WINDOW);
  private wpos = 0;
  private pending = 0;
  /** Bytes written so far, up to the window: how far back a distance may reach. */
  private reach = 0;
  private readonly steps: Generator<void, void, void>;
  private done = false;

  constructor() {
    super();
    this.steps = this.decode();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
    this.input = this.pos < this.input.length ? Buffer.concat([this.input.subarray(this.pos), chunk]) : chunk;
    this.pos = 0;
    cb(this.run());
  }

  override _flush(cb: TransformCallback) {
    this.ended = true;
    const err = this.run();
    if (err) return cb(err);
    if (!this.done) return cb(new Inflate64Error('Deflate64 stream ends before its last block'));
    cb();
  }

  /** Decodes until the input runs out or the stream ends; an error is returned, not thrown. */
  private run(): Error | null {
    if (this.done) return null;
    try {
      this.done = this.steps.next().done === true;
      this.emit64();
      return null;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  /** Loads whole input bytes until `n` bits are buffered; false when the input has run out first. */
  private has(n: number): boolean {
    while (this.bitCnt < n) {
      if (this.pos >= this.input.length) return false;
      this.bitBuf |= (this.input[this.pos++] ?? 0) << this.bitCnt;
      this.bitCnt += 8;
    }
    return true;
  }

  private takeBits(n: number): number {
    const v = this.bitBuf & ((1 << n) - 1);
    this.bitBuf >>>= n;
    this.bitCnt -= n;
    return v;
  }

  /** Pauses until `n` bits are there (at most 24). */
  private *bits(n: number): Generator<void, number, void> {
    while (!this.has(n)) {
      if (this.ended) throw new Inflate64Error('Deflate64 stream is truncated');
      yield;
    }
    return this.takeBits(n);
  }

  private *symbol(h: Huffman): Generator<void, number, void> {
    while (!this.has(h.bits)) {
      // Near the end of the stream fewer bits than the longest code may remain: decode with those.
      if (this.ended) break;
      yield;
    }
    const entry = h.table[this.bitBuf & ((1 << h.bits) - 1)] ?? -1;
    const len = entry & 15;
    if (entry < 0 || len > this.bitCnt) throw new Inflate64Error(entry < 0 ? 'invalid Huffman code' : 'Deflate64 stream is truncated');
    this.takeBits(len);
    return entry >>> 4;
  }

  private put(byte: number) {
    this.window[this.wpos] = byte;
    this.wpos = (this.wpos + 1) & MASK;
    if (this.reach < WINDOW) this.reach++;
    if (++this.pending === FLUSH_AT) this.emit64();
  }

  /** Hands on the bytes written since the last call. */
  private emit64() {
    if (this.pending === 0) return;
    const start = (this.wpos - this.pending) & MASK;
    const out =
      start < this.wpos || this.wpos === 0
        ? Buffer.from(this.window.subarray(start, start + this.pending))
        : Buffer.concat([this.window.subarray(start), this.window.subarray(0, this.wpos)]);
    this.pending = 0;
    this.push(out);
  }

  private *decode(): Generator<void, void, void> {
    let last = 0;
    while (last === 0) {
      last = yield* this.bits(1);
      const type = yield* this.bits(2);
      if (type === 0) yield* this.stored();
      else if (type === 1) yield* this.codes(FIXED_LITERALS, FIXED_DISTANCES);
      else if (type === 2) {
        const [lit, dist] = yield* this.dynamicTables();
        yield* this.codes(lit, dist);
      } else throw new Inflate64Error('invalid block type 3');
    }
  }

  private *stored(): Generator<void, void, void> {
    this.takeBits(this.bitCnt & 7);
    const len = yield* this.bits(16);
    const nlen = yield* this.bits(16);
    if ((len ^ 0xffff) !== nlen) throw new Inflate64Error('stored block length does not match its complement');
    let left = len;
    // Whole bytes already loaded into the bit buffer come first.
    while (left > 0 && this.bitCnt >= 8) {
      this.put(this.takeBits(8));
      left--;
    }
    while (left > 0) {
      if (this.pos >= this.input.length) {
        if (this.ended) throw new Inflate64Error('Deflate64 stream is truncated');
        yield;
        continue;
      }
      this.put(this.input[this.pos++] ?? 0);
      left--;
    }
  }

  private *dynamicTables(): Generator<void, [Huffman, Huffman], void> {
    const nlen = (yield* this.bits(5)) + 257;
    const ndist = (yield* this.bits(5)) + 1;
    const ncode = (yield* this.bits(4)) + 4;
    if (nlen > 286 + 2 || ndist > 32) throw new Inflate64Error('too many length or distance codes');
    const clen = new Array<number>(19).fill(0);
    for (let i = 0; i < ncode; i++) clen[CODE_LENGTH_ORDER[i] ?? 0] = yield* this.bits(3);
    const lencode = huffman(clen, 19);
    const lengths = new Array<number>(nlen + ndist).fill(0);
    let i = 0;
    while (i < nlen + ndist) {
      const sym = yield* this.symbol(lencode);
      if (sym < 16) {
        lengths[i++] = sym;
        continue;
      }
      let value = 0;
      let repeat: number;
      if (sym === 16) {
        if (i === 0) throw new Inflate64Error('repeat of a length with no previous length');
        value = lengths[i - 1] ?? 0;
        repeat = 3 + (yield* this.bits(2));
      } else if (sym === 17) repeat = 3 + (yield* this.bits(3));
      else repeat = 11 + (yield* this.bits(7));
      if (i + repeat > nlen + ndist) throw new Inflate64Error('code lengths overflow the table');
      while (repeat-- > 0) lengths[i++] = value;
    }
    if ((lengths[256] ?? 0) === 0) throw new Inflate64Error('no end-of-block code');
    return [huffman(lengths.slice(0, nlen), nlen), huffman(lengths.slice(nlen), ndist)];
  }

  private *codes(lit: Huffman, dist: Huffman): Generator<void, void, void> {
    for (;;) {
      const sym = yield* this.symbol(lit);
      if (sym < 256) {
        this.put(sym);
        continue;
      }
      if (sym === 256) return;
      const li = sym - 257;
      if (li >= LENGTH_BASE.length) throw new Inflate64Error(`invalid length code ${sym}`);
      const extra = LENGTH_EXTRA[li] ?? 0;
      const length = (LENGTH_BASE[li] ?? 0) + (extra ? yield* this.bits(extra) : 0);
      const di = yield* this.symbol(dist);
      const dextra = DIST_EXTRA[di] ?? 0;
      const distance = (DIST_BASE[di] ?? 0) + (dextra ? yield* this.bits(dextra) : 0);
      if (di >= DIST_BASE.length || distance > this.reach) throw new Inflate64Error('distance reaches before the start of the output');
      for (let k = 0; k < length; k++) this.put(this.window[(this.wpos - distance) & MASK] ?? 0);
    }
  }
}
