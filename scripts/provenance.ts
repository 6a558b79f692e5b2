/**
 * What each source's adapter was verified on, for /api/v1/sources and /docs/data-types: built from
 * the one machine-readable provenance file of each fixture folder (test/fixtures/<folder>/provenance.json)
 * into src/sources/provenance.json, which the service reads (it never reads test/ at run time), and the
 * count in README.md between the `recordings-count` markers. `--check` fails when either is stale.
 *
 *   npm run provenance [-- --check]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { CATALOG } from '../src/catalog/index.ts';
import { sourceFolders } from './check/recorder.ts';
import type { ProvenanceFile, SourceProvenance } from '../src/sources/provenance.ts';

const ROOT = new URL('../', import.meta.url);
const FIXTURES = new URL('test/fixtures/', ROOT);
export const GENERATED = new URL('src/sources/provenance.json', ROOT);
const README = new URL('README.md', ROOT);

/** A folder's provenance.json, checked: each listed file exists, and the verdict follows from the list. */
export function readFolder(folder: string): ProvenanceFile {
  const path = new URL(`${folder}/provenance.json`, FIXTURES);
  if (!existsSync(path)) throw new Error(`test/fixtures/${folder}/provenance.json is missing`);
  const p = JSON.parse(readFileSync(path, 'utf8')) as ProvenanceFile;
  if (p.verified_on !== 'recording' && p.verified_on !== 'documentation') throw new Error(`${folder}: verified_on must be recording or documentation`);
  if (!Array.isArray(p.files)) throw new Error(`${folder}: files must be a list`);
  if (p.files.length > 0 !== (p.verified_on === 'recording')) throw new Error(`${folder}: verified_on "recording" needs recorded files, and only then`);
  for (const f of p.files) {
    if (typeof f.file !== 'string' || typeof f.source !== 'string' || typeof f.recorded !== 'string')
      throw new Error(`${folder}: each file needs file, source, recorded`);
    if (!existsSync(new URL(`${folder}/${f.file}`, FIXTURES))) throw new Error(`${folder}: ${f.file} is listed but not in the folder`);
  }
  return p;
}

/** Per source id of the catalog: its folder's recordings that apply to it (a file's `sources`, else every source of the folder). */
export async function buildProvenance(): Promise<Record<string, SourceProvenance>> {
  const folderOf = await sourceFolders(CATALOG.sources);
  const folders = readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const read = new Map(folders.map((f) => [f, readFolder(f)]));
  const out: Record<string, SourceProvenance> = {};
  for (const s of [...CATALOG.sources].sort((a, b) => a.id.localeCompare(b.id))) {
    const folder = folderOf.get(s.id);
    const files = (folder ? (read.get(folder)?.files ?? []) : []).filter((f) => !f.sources || f.sources.includes(s.id));
    out[s.id] = {
      verified_on: files.length > 0 ? 'recording' : 'documentation',
      fixtures: folder ? `test/fixtures/${folder}/` : null,
      recordings: files.map((f) => ({ file: f.file, source: f.source, recorded: f.recorded, commit: f.commit ?? null, note: f.note ?? null })),
    };
  }
  return out;
}

export function renderGenerated(p: Record<string, SourceProvenance>): string {
  return JSON.stringify(p, null, 2) + '\n';
}

export function countText(p: Record<string, SourceProvenance>): string {
  const all = Object.values(p);
  const recorded = all.filter((s) => s.verified_on === 'recording').length;
  return `${recorded} of ${all.length} sources verified on real recordings (the rest on their documentation); \`GET /api/v1/sources\` names each one's recordings.`;
}

export function updatedReadme(readme: string, p: Record<string, SourceProvenance>): string {
  const start = '<!-- recordings-count:start -->',
    end = '<!-- recordings-count:end -->';
  const a = readme.indexOf(start),
    b = readme.indexOf(end);
  if (a < 0 || b < 0) throw new Error('README.md lacks the recordings-count markers');
  return readme.slice(0, a + start.length) + '\n' + countText(p) + '\n' + readme.slice(b);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const p = await buildProvenance();
  const generated = renderGenerated(p);
  const readme = readFileSync(README, 'utf8');
  const nextReadme = updatedReadme(readme, p);
  if (process.argv.includes('--check')) {
    const stale = [...(readFileSync(GENERATED, 'utf8') !== generated ? ['src/sources/provenance.json'] : []), ...(nextReadme !== readme ? ['README.md'] : [])];
    if (stale.length) {
      console.error(`out of date: ${stale.join(', ')}; run npm run provenance`);
      process.exit(1);
    }
  } else {
    writeFileSync(GENERATED, generated);
    writeFileSync(README, nextReadme);
    console.log(countText(p));
  }
}
