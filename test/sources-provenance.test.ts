import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { register as registerDbOpenStations } from './fixtures/db-open-stations/routes.ts';
import { at, list } from './helpers/json.ts';
import { SourcesAnswer } from '../src/services/schemas.ts';
import { summariseChecks } from '../src/services/upstream-check.ts';
import { buildProvenance, countText, GENERATED, renderGenerated, updatedReadme } from '../scripts/provenance.ts';

const ctx = useFakeApp(registerDbOpenStations);
const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-provenance-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

interface Row {
  source: string;
  verified_on: string;
  recordings: { file: string; source: string; recorded: string; commit: string | null; note: string | null }[];
  upstream_check: { checked_at: string; verdict: string; checks: number; counts: Record<string, number> } | null;
}
const rows = async (app = ctx.app) => {
  const r = await app.get('/api/v1/sources?limit=all');
  assert.equal(r.status, 200);
  SourcesAnswer().parse(r.json);
  return list<Row>(r.json, 'data');
};
const row = (all: Row[], id: string) => {
  const r = all.find((x) => x.source === id);
  assert.ok(r, id);
  return r;
};

test("src/sources/provenance.json and the README count are generated from every fixture folder's provenance.json (npm run provenance)", async () => {
  const p = await buildProvenance();
  assert.equal(readFileSync(GENERATED, 'utf8'), renderGenerated(p), 'run npm run provenance');
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  assert.equal(updatedReadme(readme, p), readme, 'run npm run provenance');
  assert.match(countText(p), /^\d+ of \d+ sources verified on real recordings/);
  assert.ok(readme.includes(countText(p)));
  // A folder that names recordings says "recording"; a source without any says "documentation".
  assert.equal(p['db-open-stations']?.verified_on, 'recording');
  assert.equal(p['destatis-gv-isys']?.verified_on, 'documentation');
  // A recording that names its sources counts for those only (Bright Sky's alerts are not its weather).
  assert.ok(p['dwd-brightsky']?.recordings.every((r) => !r.file.startsWith('alerts-')));
  assert.ok(p['dwd-warnings-brightsky']?.recordings.every((r) => r.file.startsWith('alerts-')));
});

test('GET /api/v1/sources: per source what its adapter was verified on, with the date and origin of each recording', async () => {
  const all = await rows();
  const open = row(all, 'db-open-stations');
  assert.equal(open.verified_on, 'recording');
  const edition = open.recordings.find((r) => r.file === 'DBSuS-Uebersicht_Bahnhoefe-Stand2020-03.csv');
  assert.deepEqual(edition, {
    file: 'DBSuS-Uebersicht_Bahnhoefe-Stand2020-03.csv',
    source: 'github:faabey33/peetrain DBSuS-Uebersicht_Bahnhoefe-Stand2020-03.csv',
    recorded: '2020-03',
    commit: 'f394d2ba7158',
    note: null,
  });
  const vienna = row(all, 'nextbike-gbfs').recordings.find((r) => r.file.startsWith('station_information'));
  assert.equal(vienna?.note, 'Vienna: parser only', 'a recording of another place says so');
  // The municipality register reads no upstream, so it can have no recording.
  const gvIsys = row(all, 'destatis-gv-isys');
  assert.deepEqual([gvIsys.verified_on, gvIsys.recordings], ['documentation', []]);
  assert.ok(
    all.every((r) => r.upstream_check === null),
    'no check-upstreams result recorded here',
  );
  assert.equal(all.filter((r) => r.verified_on === 'recording').length, Number(/^(\d+) of/.exec(countText(await buildProvenance()))?.[1]));
});

test("GET /api/v1/sources: the operator's last check-upstreams run (date and verdict per source) when its result file exists; a broken file is no result, never a 500", async (t) => {
  const path = join(dir, 'check-upstreams.json');
  const result = summariseChecks(
    [
      { source: 'db-open-stations', verdict: 'ok' },
      { source: 'db-open-stations', verdict: 'no_data' },
      { source: 'rmv', verdict: 'ok' },
      { source: 'rmv', verdict: 'parse_error' },
    ],
    new Date('2026-12-01T06:00:00Z'),
  );
  writeFileSync(path, JSON.stringify(result));
  // PREPARED_VIEW_MS=0: each request composes the list anew, so the test sees the file change at once.
  const app = await startApp({ ...fakeEnv(ctx.fake.url), CHECK_UPSTREAMS_RESULT_PATH: path, PREPARED_VIEW_MS: '0' });
  t.after(() => app.close());
  let all = await rows(app);
  assert.deepEqual(row(all, 'db-open-stations').upstream_check, {
    checked_at: '2026-12-01T06:00:00.000Z',
    verdict: 'ok',
    checks: 2,
    counts: { ok: 1, no_data: 1 },
  });
  assert.equal(row(all, 'rmv').upstream_check?.verdict, 'parse_error', 'the worst verdict that matters');
  assert.equal(row(all, 'autobahn').upstream_check, null, 'not checked in that run');
  writeFileSync(path, '{"checked_at": 1, "sources": "garbage" ');
  all = await rows(app);
  assert.ok(all.every((r) => r.upstream_check === null));
  rmSync(path);
  const gone = await app.get('/api/v1/sources');
  assert.equal(gone.status, 200);
  assert.equal(at(gone.json, 'meta.source_status'), 'ok');
});

test('/docs/data-types says per source whether its adapter was verified on a recording (date, origin) or on the documentation', async () => {
  const page = await ctx.app.get('/docs/data-types');
  assert.equal(page.status, 200);
  const section = (type: string) => page.text.slice(page.text.indexOf(`<section id="${type}">`)).split('</section>')[0] ?? '';
  assert.match(section('stations'), /<code>db-stada<\/code>\); adapter verified on a recording of ~2020 \(github:amuttsch\/go-db-api [^)]*\) and 1 more/);
  assert.match(section('weather'), /adapter verified on a recording of 2025-09-18 \(github:ticaki\/ioBroker\.brightsky/, 'the newest dated recording');
  assert.match(page.text, /adapter verified on payloads built from the documentation \(no recording found\)/);
});
