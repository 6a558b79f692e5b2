import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { at, list, num } from './helpers/json.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { type TestResponse } from './helpers/app.ts';
import { MUENCHEN_WFS, muenchenWfs, register as registerMuenchenGeoportal } from './fixtures/muenchen-geoportal/routes.ts';

const ctx = useFakeApp(registerMuenchenGeoportal);
const { fake } = ctx;
const PATH = '/api/v1/cities/muenchen/parking-onstreet';

const freshGet = (path: string): Promise<TestResponse> => ctx.freshGet(path);

test('GET parking-onstreet: München sections summed per rule group and zone, attributes only', async () => {
  const r = await ctx.app.get(PATH);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(num(r.json, 'data.segments'), 13);
  assert.equal(num(r.json, 'data.spaces'), 65);
  assert.deepEqual(list(r.json, 'data.by_rule_group').slice(0, 3), [
    { group: 'Mischparken', segments: 3, spaces: 23 },
    { group: 'Bewohnerparken', segments: 2, spaces: 16 },
    { group: 'Parken ohne Regelung', segments: 1, spaces: 14 },
  ]);
  assert.deepEqual(list(r.json, 'data.by_rule_group').at(-1), { group: 'Absolutes Halteverbot (0-24 Uhr)', segments: 2, spaces: 0 });
  const zones = list<{ name: string; segments: number; spaces: number; opened_on: string | null; enforcement: string | null }>(r.json, 'data.zones');
  assert.deepEqual(
    zones.map((z) => [z.name, z.segments, z.spaces]),
    [
      ['Gärtnerplatz', 2, 8],
      ['Schwabing, West', 0, 0],
      ['Südliche Au', 4, 24],
      ['TU-Viertel', 5, 16],
    ],
  );
  assert.equal(zones[3]!.opened_on, '2007-12-04');
  assert.equal(zones[3]!.enforcement, 'Polizei');
  assert.equal(zones[1]!.opened_on, null);
  assert.deepEqual(at(r.json, 'data.outside_zones'), { segments: 2, spaces: 17 });
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/by-2-0');
  const asked = fake.requests.filter((q) => q.url.startsWith(MUENCHEN_WFS)).map((q) => new URL(q.url, 'http://x').searchParams);
  assert.deepEqual(
    asked.map((q) => [q.get('typeName'), q.get('outputFormat')]),
    [
      ['mor_wfs:ruhver_parkseiten_line', 'csv'],
      ['mor_wfs:ruhver_prm_gebiete_poly', 'csv'],
    ],
  );
  assert.equal(asked[0]!.get('propertyName'), 'strasse,angebot,parkregel_gruppe,prm_name');
});

test('parking-onstreet: an empty section layer is no_data; other cities are not_covered', async () => {
  fake.get(MUENCHEN_WFS, (_req, url) =>
    url.searchParams.get('typeName') === 'mor_wfs:ruhver_parkseiten_line' ? { body: 'FID,strasse,angebot,parkregel_gruppe,prm_name\r\n' } : muenchenWfs(url),
  );
  const r = await freshGet(PATH);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  const n = await ctx.app.get('/api/v1/cities/koeln/parking-onstreet');
  assert.equal(at(n.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(n.json, 'meta.covered_cities'), ['muenchen']);
});

test('parking-onstreet: an exception report instead of CSV or a dead upstream is a 503 problem, never a 500', async () => {
  fake.get(MUENCHEN_WFS, {
    body: '<?xml version="1.0" ?><ServiceExceptionReport version="1.2.0"><ServiceException code="InvalidParameterValue">Illegal property name: angebot</ServiceException></ServiceExceptionReport>',
    headers: { 'content-type': 'application/xml' },
  });
  const r = await freshGet(PATH);
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  assert.ok(!r.text.includes('Illegal property'));
  await expectUnavailable({ fake, path: PATH });
});

test('parking-onstreet: MUENCHEN_GEOPORTAL_ENABLED=false is disabled and asks no upstream', async () => {
  await expectDisabled({ fake, env: { MUENCHEN_GEOPORTAL_ENABLED: 'false' }, path: PATH, upstreamPrefix: MUENCHEN_WFS });
});
