import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { constants, deflateRawSync } from 'node:zlib';
import { Inflate64 } from '../src/upstream/inflate64.ts';
import { eachRowOfZipMember } from '../src/upstream/zip-archive.ts';
import { delimitedRows } from '../src/core/delimited.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { deflate64Sample } from './fixtures/deflate64/sample.ts';

/** The Deflate64 decoder (ZIP method 9) and the ZIP line reader on Deflate64 members. */
const SAMPLE_ZIP = fixture('deflate64/sample-7zip-deflate64.zip');

/** The compressed bytes of a ZIP's first member (local header: name and extra lengths at 26 and 28, sizes at 18). */
function firstMember(zip: Buffer): Buffer {
  const start = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
  return zip.subarray(start, start + zip.readUInt32LE(18));
}

/** Packs fields into deflate's bit order: [value, width] LSB first, or [code, width, 'code'] most significant bit first (Huffman codes). */
function bits(...fields: ([number, number] | [number, number, 'code'])[]): Buffer {
  const out: number[] = [];
  let n = 0;
  const put = (bit: number) => {
    if (n % 8 === 0) out.push(0);
    out[out.length - 1] = (out[out.length - 1] ?? 0) | (bit << (n % 8));
    n++;
  };
  for (const [value, width, kind] of fields) {
    for (let i = 0; i < width; i++) put(kind === 'code' ? (value >> (width - 1 - i)) & 1 : (value >> i) & 1);
  }
  return Buffer.from(out);
}

/** Feeds `input` in pieces of `step` bytes and collects the output, or the error. */
async function inflate(input: Buffer, step = input.length): Promise<Buffer> {
  const d = new Inflate64();
  const out: Buffer[] = [];
  d.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    d.on('end', resolve);
    d.on('error', reject);
  });
  for (let i = 0; i < input.length; i += step) d.write(input.subarray(i, i + step));
  d.end();
  await done;
  return Buffer.concat(out);
}

test('7-Zip Deflate64 output (distances past 32 KiB, lengths past 258) inflates to the original, in one piece or byte by byte', async () => {
  assert.equal(SAMPLE_ZIP.readUInt16LE(8), 9, 'the fixture member is Deflate64');
  const raw = firstMember(SAMPLE_ZIP);
  const expected = deflate64Sample();
  for (const step of [raw.length, 4096, 7, 1]) assert.ok((await inflate(raw, step)).equals(expected), `pieces of ${step}`);
});

test('stored and fixed-Huffman blocks, which Deflate64 shares with deflate, inflate as zlib wrote them', async () => {
  const data = randomBytes(100_000);
  // Level 0: stored blocks only. Random bytes with the fixed code: literals only, so no length code whose meaning differs.
  for (const opts of [{ level: 0 }, { strategy: constants.Z_FIXED }]) {
    const packed = deflateRawSync(data, opts);
    assert.ok((await inflate(packed)).equals(data), JSON.stringify(opts));
    assert.ok((await inflate(packed, 3)).equals(data), `${JSON.stringify(opts)} in pieces`);
  }
  assert.equal((await inflate(deflateRawSync(Buffer.alloc(0)))).length, 0);
});

test('a truncated or corrupt stream is an error, never a hang or partial success', async () => {
  const raw = firstMember(SAMPLE_ZIP);
  await assert.rejects(inflate(raw.subarray(0, raw.length >> 1)), /truncated|before its last block/);
  await assert.rejects(inflate(Buffer.from([0x07])), /invalid block type 3/);
  await assert.rejects(inflate(Buffer.from([0x01, 0x05, 0x00, 0x05, 0x00])), /complement/);
  // A fixed-code block whose first symbol is a match (length code 257, distance code 0): it reaches before the output's start.
  await assert.rejects(inflate(bits([1, 1], [1, 2], [0b0000001, 7, 'code'], [0, 5, 'code'])), /distance reaches before the start/);
  let failures = 0;
  for (let i = 0; i < 50; i++) {
    const garbage = Buffer.from(raw);
    garbage.writeUInt8((garbage.readUInt8(100 + i * 97) ^ 0xff) & 0xff, 100 + i * 97);
    garbage.writeUInt8((garbage.readUInt8(101 + i * 89) ^ 0x55) & 0xff, 101 + i * 89);
    // Either an error or (rarely) other bytes: the ZIP reader's CRC check catches the second case.
    const result = await inflate(garbage).catch(() => null);
    if (result === null || !result.equals(deflate64Sample())) failures++;
  }
  assert.equal(failures, 50);
});

test('zip archive: a Deflate64 member is read; a CRC-32 that does not match fails the read', async () => {
  const csv = fixture('inkar/inkar_2025-excerpt-constructed.csv').toString('utf8');
  const zip = fixture('inkar/inkar_2025-excerpt-deflate64.zip');
  assert.equal(zip.readUInt16LE(8), 9, 'the fixture member is Deflate64');
  const spec = { member: /^inkar_\d{4}\.csv$/, label: 'INKAR archive', missing: 'none', maxBytes: 1e6, trim: false };
  const rows: string[][] = [];
  assert.equal(await eachRowOfZipMember(zip, spec, (r) => rows.push(r)), 'inkar_2025.csv');
  // The byte-order mark the excerpt starts with is dropped, as the real file may have one.
  assert.deepEqual(rows, delimitedRows(csv, { label: 'excerpt', trim: false }));

  // The CRC-32 sits in the local header (offset 14) and in the central directory entry (offset 16).
  const badCrc = Buffer.from(zip);
  const central = badCrc.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  badCrc.writeUInt32LE((badCrc.readUInt32LE(14) ^ 1) >>> 0, 14);
  badCrc.writeUInt32LE((badCrc.readUInt32LE(central + 16) ^ 1) >>> 0, central + 16);
  await assert.rejects(
    eachRowOfZipMember(badCrc, spec, () => {}),
    /INKAR archive: member does not match its declared size and CRC-32/,
  );
  await assert.rejects(
    eachRowOfZipMember(zip, { ...spec, maxBytes: 100 }, () => {}),
    /exceeds 100/,
  );
});
