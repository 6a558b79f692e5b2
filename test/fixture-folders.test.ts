import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { FIXTURE_FOLDERS, FIXTURE_ROUTES } from './fixtures/index.ts';

const SOURCES_DIR = new URL('../src/sources/', import.meta.url);
const FIXTURES_DIR = new URL('./fixtures/', import.meta.url);

/** Source modules that call no upstream, so there is nothing to serve, with the reason. */
const WITHOUT_ROUTES: Record<string, string> = {
  'gv-isys': 'precomputed into the city register (src/cities/register.json); answering needs no upstream call',
};

const dirs = (url: URL) =>
  readdirSync(url, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

test('fixtures by convention: every source module has test/fixtures/<source>/routes.ts exporting register(fake), or a reason', () => {
  const sources = dirs(SOURCES_DIR);
  for (const source of sources) {
    if (WITHOUT_ROUTES[source]) {
      assert.ok(!FIXTURE_FOLDERS.includes(source), `${source} has routes now: drop it from WITHOUT_ROUTES`);
      continue;
    }
    assert.ok(FIXTURE_FOLDERS.includes(source), `src/sources/${source} has no test/fixtures/${source}/routes.ts`);
    assert.ok(existsSync(new URL(`${source}/README.md`, FIXTURES_DIR)), `test/fixtures/${source}/README.md says where its files come from`);
  }
  // The other way round: every routes folder serves a source module of that name.
  for (const folder of FIXTURE_FOLDERS) assert.ok(sources.includes(folder), `test/fixtures/${folder}/routes.ts serves no src/sources/${folder}`);
  assert.equal(FIXTURE_ROUTES.length, FIXTURE_FOLDERS.length);
  for (const register of FIXTURE_ROUTES) assert.equal(typeof register, 'function');
});

test('test/fixtures/README.md: each folder has one row, and its "verified on" column says what its provenance.json says', () => {
  const readme = readFileSync(new URL('README.md', FIXTURES_DIR), 'utf8');
  const rows = new Map<string, string[]>();
  for (const m of readme.matchAll(/^\| \[`([^`]+)\/`\]\([^)]+\) \| (\w+) \|/gm)) rows.set(m[1]!, [...(rows.get(m[1]!) ?? []), m[2]!]);
  for (const folder of dirs(FIXTURES_DIR)) {
    const provenance = new URL(`${folder}/provenance.json`, FIXTURES_DIR);
    if (!existsSync(provenance)) continue;
    const { verified_on } = JSON.parse(readFileSync(provenance, 'utf8')) as { verified_on: string };
    assert.deepEqual(rows.get(folder), [verified_on], `test/fixtures/README.md: the row of ${folder}/ should say ${verified_on}`);
  }
});
