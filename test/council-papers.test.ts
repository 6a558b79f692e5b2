import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { at, list, obj, str } from './helpers/json.ts';
import { must, nth } from './helpers/must.ts';
import { type TestResponse } from './helpers/app.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { register as registerOparl } from './fixtures/oparl/routes.ts';
import { assertSystem, paperList, parsePaper, type OparlList, type OparlPaper, type OparlSystemObject } from '../src/sources/oparl/parse.ts';
import { OPARL } from '../src/sources/oparl/source.ts';
import { OPARL_SYSTEMS } from '../src/sources/oparl/systems.ts';
import { CouncilPapersRecord } from '../src/core/records/city-base.ts';
import { published } from '../src/core/schema.ts';

const json = <T>(name: string): T => JSON.parse(fixture(`oparl/${name}`).toString('utf8')) as T;
const ctx = useFakeApp(registerOparl);
const { fake } = ctx;
const PATH = '/api/v1/cities/leipzig/council-papers';

const freshGet = (path: string): Promise<TestResponse> => ctx.freshGet(path);

test('parser: the real ALLRIS and SD.NET System objects name their body list; a non-System body fails', () => {
  assert.equal(assertSystem(json<OparlSystemObject>('system_leipzig_allris_1.0.json')).body, 'https://ratsinfo.leipzig.de/bi/oparl/1.0/bodies.asp');
  assert.equal(assertSystem(json<OparlSystemObject>('system_krefeld_sdnet-rim_1.0.json')).body, 'https://ris.krefeld.de/webservice/oparl/v1.0/body');
  assert.equal(json<OparlSystemObject>('system_krefeld_sdnet-rim_1.0.json').license, undefined, 'Krefeld states no licence');
  assert.throws(() => assertSystem(json('body_leipzig_allris_1.0.json')), /OParl System \$\.type: not an OParl System/);
  assert.throws(() => paperList({ items: [] }), /OParl paper list \$\.data: expected array, received undefined/);
});

test('parser: a paper gives name, reference, date, type, main file URL and zoned modified time', () => {
  const page = json<OparlList<OparlPaper>>('papers_leipzig_page1.json');
  const p = parsePaper(nth(must(page.data), 0));
  assert.deepEqual(p, {
    id: 'https://ratsinfo.leipzig.de/bi/oparl/1.0/papers.asp?id=1023401',
    name: 'Fortschreibung des Nahverkehrsplans der Stadt Leipzig',
    reference: 'VII-DS-09876',
    date: '2026-10-28',
    paper_type: 'Beschlussvorlage',
    main_file_url: 'https://ratsinfo.leipzig.de/bi/getfile.asp?id=1523401&type=do',
    main_file_mime_type: 'application/pdf',
    web_url: 'https://ratsinfo.leipzig.de/bi/vo020.asp?VOLFDNR=1023401',
    modified: '2026-11-03T10:15:22+01:00',
  });
  assert.equal(parsePaper(nth(must(page.data), 2)).main_file_url, null);
  assert.equal(parsePaper({ modified: '2026-11-03T10:15:22' }).modified, null, 'a time without offset is not guessed');
});

test('parser on the recorded ALLRIS paper page (Leipzig, p=2): line breaks in the name, `web` without its base URL, accessUrl as the file', () => {
  const page = json<OparlList<OparlPaper> & { pagination: { elementsPerPage: number } }>('papers_leipzig_allris_1.0_body2387_p2_1-item.json');
  assert.equal(page.pagination.elementsPerPage, 20);
  assert.match(String(page.links?.next), /papers\.asp\?body=2387&p=3$/);
  assert.deepEqual(parsePaper(nth(paperList(page).data ?? [], 0)), {
    id: 'https://ratsinfo.leipzig.de/bi/oparl/1.0/papers.asp?id=1000030',
    name: 'Konzept der Stadt Leipzig zur fairen und nachhaltigen Beschaffung (eRis: DS V/3966)',
    reference: 'DS-00029/14',
    date: '2014-09-09',
    paper_type: 'Informationsvorlage',
    main_file_url: 'https://ratsinfo.leipzig.de/bi/oparl/1.0/download.asp?dtyp=130&id=1000487',
    main_file_mime_type: 'application/pdf',
    web_url: null,
    modified: '2014-09-09T10:03:49+02:00',
  });
});

test('GET council-papers for Leipzig: system -> body -> two pages of papers, newest first, deleted left out, licence from the system', async () => {
  const r = await ctx.app.get(PATH);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const d = obj(r.json, 'data');
  assert.ok(published(CouncilPapersRecord()).safeParse(d).success);
  assert.equal(d.body_name, 'Stadt Leipzig');
  assert.equal(d.system_name, null, 'the system calls itself "N/A"');
  assert.equal(d.license, 'Datenlizenz Deutschland Namensnennung 2.0');
  assert.equal(d.license_stated_by, 'system');
  assert.deepEqual(
    list<{ reference: string }>(d, 'papers').map((p) => p.reference),
    ['VII-F-03307', 'VII-A-04512', 'VII-DS-09876', 'VII-DS-09851'],
  );
  assert.equal(at(r.json, 'meta.as_of'), '2026-11-10T14:21:10+01:00');
  assert.equal(fake.count('/bi/oparl/1.0/papers.asp'), 2, 'links.next followed');
  const first = fake.requests.find((q) => q.url.startsWith('/bi/oparl/1.0/papers.asp'))!;
  const q = new URL(first.url, 'http://x').searchParams;
  assert.equal(q.get('body'), '2387');
  assert.match(q.get('modified_since') ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
  const page = await ctx.app.get(`${PATH}?limit=1`);
  assert.equal(at(page.json, 'data.papers.length'), 1);
});

test('GET council-papers: a system without a licence statement takes the licence the city grants', async () => {
  fake.get('/allris_leipzig_public/oparl/system', { json: { ...json<OparlSystemObject>('system_leipzig_allris_1.0.json'), license: undefined } });
  const r = await freshGet(PATH);
  assert.equal(at(r.json, 'data.license'), 'CC-BY-4.0');
  assert.equal(at(r.json, 'data.license_stated_by'), 'city');
});

test('GET council-papers: an empty paper list is no_data', async () => {
  fake.get('/bi/oparl/1.0/papers.asp', { json: { data: [], pagination: { totalElements: 0 }, links: {} } });
  const r = await freshGet(PATH);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /no paper/);
});

test('GET council-papers: cities without an openly licensed OParl system are not_covered, with the covered list', async () => {
  const r = await ctx.app.get('/api/v1/cities/krefeld/council-papers');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(r.json, 'meta.covered_cities'), OPARL_SYSTEMS.map((s) => s.slug).sort());
  assert.match(str(r.json, 'meta.note'), /licence/);
  assert.equal(fake.count(), 0);
});

test('GET council-papers: garbage from the system or a dead system with nothing cached is a 503 problem', async () => {
  fake.get('/allris_leipzig_public/oparl/system', { body: '<html>Wartung</html>', headers: { 'content-type': 'text/html' } });
  const fresh = await freshGet(PATH);
  assert.equal(fresh.status, 503);
  assert.equal(at(fresh.json, 'code'), 'upstream_unavailable');
  await expectUnavailable({ fake, path: PATH, mode: 'error' });
});

test('GET council-papers: toggle off is disabled; every system URL is configurable', async () => {
  await expectDisabled({ fake, env: { OPARL_ENABLED: 'false' }, path: PATH });
  assert.equal(Object.keys(OPARL.urls ?? {}).length, OPARL_SYSTEMS.length - 1);
  assert.ok(Object.values(OPARL.urls ?? {}).some((u) => u.env === 'OPARL_KOELN_SYSTEM_URL'));
});
