import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ZipArchive, withZip } from '../src/upstream/zip-archive.ts';
import { zipFiles } from './helpers/zip.ts';

/** The one ZIP reader (src/upstream/zip-archive.ts): what every source's archive goes through. */
const LIMITS = { label: 'Test archive', maxMembers: 10 };

test('members are listed in order without folders; read whole or as a stream, in any order, under a size cap', async () => {
  const body = zipFiles({ 'data/': '', 'data/b.csv': 'b;1\n', 'a.txt': 'alpha' });
  await withZip(body, LIMITS, async (zip) => {
    assert.deepEqual(
      zip.members.map((m) => [m.name, m.baseName, m.size]),
      [
        ['data/b.csv', 'b.csv', 4],
        ['a.txt', 'a.txt', 5],
      ],
    );
    assert.equal((await zip.bytes(zip.find(/\.txt$/)!, 5)).toString(), 'alpha');
    assert.equal((await zip.bytes(zip.find(/b\.csv$/)!, 100)).toString(), 'b;1\n');
    await assert.rejects(zip.bytes(zip.find(/\.txt$/)!, 4), /Test archive: member a\.txt of 5 bytes exceeds 4/);
  });
});

test('an archive with an unsafe or repeated member name, or too many members, is refused before anything is read', async () => {
  await assert.rejects(ZipArchive.open(zipFiles({ 'C:/x.csv': '1' }), LIMITS), /Test archive: (absolute path|unsafe member name)/);
  // Two members whose names differ only in one byte, made equal in the local and central headers.
  const twice = zipFiles({ 'a.csv': '1', 'b.csv': '2' });
  for (let at = twice.indexOf('b.csv'); at >= 0; at = twice.indexOf('b.csv', at + 1)) twice.write('a', at);
  await assert.rejects(ZipArchive.open(twice, LIMITS), /Test archive: member "a\.csv" appears twice/);
  const many = zipFiles(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`m${i}.csv`, String(i)])));
  await assert.rejects(ZipArchive.open(many, LIMITS), /Test archive: more than 10 members/);
  await assert.rejects(ZipArchive.open(Buffer.from('<html>'), LIMITS), /Test archive: not a ZIP archive/);
});

test('a deflate member whose CRC-32 does not match fails its read', async () => {
  const body = zipFiles({ 'a.csv': 'x;y\n1;2\n' });
  // The CRC-32 sits in the local header (offset 14) and in the central directory entry (offset 16).
  const central = body.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  body.writeUInt32LE((body.readUInt32LE(14) ^ 1) >>> 0, 14);
  body.writeUInt32LE((body.readUInt32LE(central + 16) ^ 1) >>> 0, central + 16);
  await assert.rejects(
    withZip(body, LIMITS, async (zip) => zip.bytes(zip.members[0]!, 100)),
    /Test archive: member does not match its declared size and CRC-32/,
  );
});
