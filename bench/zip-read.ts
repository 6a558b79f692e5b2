import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { withZip } from '../src/upstream/zip-archive.ts';
import { median } from './median.ts';

/**
 * How fast the ZIP reader (src/upstream/zip-archive.ts: yauzl, zlib and our Deflate64 decoder)
 * inflates the first member of each archive given, and, when `@zip.js/zip.js` can be imported
 * (it is not a dependency: `npm install --no-save @zip.js/zip.js` first), the same with zip.js.
 * Each measurement runs in a fresh process, after one warm-up read: MB of output per CPU second
 * (the machine is shared, so wall-clock rates move with the load), wall-clock MB/s and the
 * process's peak RSS. Every run checks the
 * output's CRC-32 against the other reader's.
 *   node bench/zip-read.ts [--rounds 3] a.zip b.zip
 */
type Reader = 'yauzl' | 'zipjs';

/** The part of zip.js's API used here (it is imported by name at run time, so it has no types here). */
interface ZipJs {
  configure(o: { useWebWorkers: boolean }): void;
  Uint8ArrayReader: new (body: Uint8Array) => unknown;
  ZipReader: new (reader: unknown) => {
    getEntries(): Promise<{ getData?(w: WritableStream<Uint8Array>, o: { checkSignature: boolean }): Promise<unknown> }[]>;
    close(): Promise<unknown>;
  };
}

async function inflateOnce(reader: Reader, file: string): Promise<{ bytes: number; crc: number }> {
  const body = readFileSync(file);
  let bytes = 0;
  let crc = 0;
  const take = (c: Uint8Array) => {
    bytes += c.length;
    crc = crc32(c, crc);
  };
  if (reader === 'yauzl') {
    await withZip(body, { label: 'bench', maxMembers: 10 }, async (zip) => {
      const stream = await zip.stream(zip.members[0]!, Number.MAX_SAFE_INTEGER);
      await new Promise((resolve, reject) => stream.on('data', take).on('end', resolve).on('error', reject));
    });
  } else {
    const name = '@zip.js/zip.js';
    const zipjs = (await import(name)) as ZipJs;
    zipjs.configure({ useWebWorkers: false });
    const zip = new zipjs.ZipReader(new zipjs.Uint8ArrayReader(body));
    const [entry] = await zip.getEntries();
    await entry!.getData!(new WritableStream({ write: take }), { checkSignature: true });
    await zip.close();
  }
  return { bytes, crc };
}

async function zipJsAvailable(): Promise<boolean> {
  try {
    const name = '@zip.js/zip.js';
    await import(name);
    return true;
  } catch {
    return false;
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  // A small archive is inflated again and again, up to 50 MB of output, so that a rate can be read.
  await inflateOnce(args[1] as Reader, args[2]!);
  const started = performance.now();
  const cpu = process.cpuUsage();
  let out = await inflateOnce(args[1] as Reader, args[2]!);
  let total = out.bytes;
  while (total < 50e6) {
    out = await inflateOnce(args[1] as Reader, args[2]!);
    total += out.bytes;
  }
  const wallS = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ ...out, total, wallS, cpuS: (used.user + used.system) / 1e6, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
} else {
  const roundsAt = args.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 3;
  const readers: Reader[] = (await zipJsAvailable()) ? ['yauzl', 'zipjs'] : ['yauzl'];
  console.log('| archive | reader | MB per CPU s | MB/s (wall) | peak RSS MB |\n|---|---|---|---|---|');
  for (const file of args) {
    const crcs = new Set<number>();
    for (const reader of readers) {
      const runs = Array.from({ length: rounds }, () => {
        const out = execFileSync(process.execPath, [import.meta.filename, '--child', reader, file], { encoding: 'utf8' });
        return JSON.parse(out.trim().split('\n').at(-1)!) as { bytes: number; crc: number; total: number; wallS: number; cpuS: number; maxRssMb: number };
      });
      for (const r of runs) crcs.add(r.crc);
      const mb = runs[0]!.bytes / 1e6;
      const row = [median(runs.map((r) => r.total / 1e6 / r.cpuS)), median(runs.map((r) => r.total / 1e6 / r.wallS)), median(runs.map((r) => r.maxRssMb))];
      console.log(`| ${file.split('/').at(-1)} (${mb.toFixed(2)} MB) | ${reader} | ${row.map((v) => v.toFixed(0)).join(' | ')} |`);
    }
    if (crcs.size !== 1) throw new Error(`${file}: the readers disagree about the content`);
  }
}
