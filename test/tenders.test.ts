import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnknownCity } from './helpers/status-rules.ts';
import { zipFiles } from './helpers/zip.ts';
import { EXPORT_PATH, register as registerVergabe, vergabeZip } from './fixtures/vergabe/routes.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { releasesOf, tenderOf } from '../src/sources/vergabe/ocds.ts';
import { tendersInExport } from '../src/sources/vergabe/export-zip.ts';
import { safeMemberName } from '../src/upstream/zip-archive.ts';
import { buyerInCity, placeKey } from '../src/sources/vergabe/stored.ts';
import { berlinDay, ingestTenders } from '../src/jobs/tenders-ingest.ts';
import { nth } from './helpers/must.ts';
import { at, list } from './helpers/json.ts';

const KOELN = 'vergabe/a1b2c3d4-0001-4000-8000-000000000001.json';
const ctx = useFakeApp(registerVergabe);
const { fake } = ctx;

test('parser: an OCDS release package to a compact tender, buyer from parties, CPV from tender and items', () => {
  const r = nth(releasesOf(JSON.parse(fixture(KOELN).toString())), 0);
  const t = tenderOf(r)!;
  assert.equal(t.notice_id, 'ocds-4t8i2b-a1b2c3d4-0001-01');
  assert.equal(t.buyer_name, 'Stadt Köln, Gebäudewirtschaft');
  assert.equal(t.post_code, '50679');
  assert.equal(t.place, 'Köln');
  assert.equal(t.nuts, 'DEA23');
  assert.deepEqual(t.cpv, ['90911200', '90919200', '90911300']);
  assert.equal(t.published, '2026-11-24T09:12:00+01:00');
  assert.equal(t.deadline, '2026-12-18T10:00:00+01:00');
  assert.equal(t.value_eur, 1250000);
  assert.equal(t.procedure, 'Offenes Verfahren');
  assert.deepEqual(releasesOf({ nothing: true }), []);
  assert.equal(releasesOf(r).length, 1, 'a bare release is read too');
  assert.equal(nth(releasesOf({ records: [{ ocid: r.ocid, compiledRelease: r }] }), 0).id, r.id, 'a record package gives its compiled releases');
});

test('city match: locality with Stadt/Landeshauptstadt prefixes, never by post code alone', () => {
  assert.equal(placeKey('Landeshauptstadt Hannover'), 'hannover');
  assert.equal(placeKey('Köln, Stadt'), 'koeln');
  const t = tenderOf(nth(releasesOf(JSON.parse(fixture(KOELN).toString())), 0))!;
  assert.equal(buyerInCity(t, CITY_BY_SLUG.get('koeln')!), true);
  assert.equal(buyerInCity(t, CITY_BY_SLUG.get('leverkusen')!), false);
  assert.equal(buyerInCity({ ...t, place: null }, CITY_BY_SLUG.get('koeln')!), false);
});

test('export zip: all members read in memory; unsafe names and non-JSON members fail the day', async () => {
  assert.equal((await tendersInExport(vergabeZip())).length, 3);
  assert.equal(safeMemberName('../x.json'), false);
  assert.equal(safeMemberName('C:/x.json'), false);
  await assert.rejects(tendersInExport(zipFiles({ 'a.json': '{not json' })), /not JSON/);
  await assert.rejects(tendersInExport(Buffer.from('<html>')), /OCDS export/);
  assert.deepEqual(await tendersInExport(zipFiles({})), []);
});

test('tenders: no_data before the ingest; after it per city by buyer and nationwide newest first', async () => {
  const before = await ctx.app.get('/api/v1/tenders');
  assert.equal(before.status, 200);
  assert.equal(at(before.json, 'meta.source_status'), 'no_data');
  assert.equal(fake.count(EXPORT_PATH), 0, 'request paths never download');

  const index = await ingestTenders(ctx.app.rt);
  assert.equal(index.days.length, 14);
  assert.equal(index.days[0], berlinDay(new Date(), 1));
  const asked = fake.requests.map((r) => new URL(r.url, 'http://x').searchParams);
  assert.ok(asked.every((q) => q.get('format') === 'ocds.zip'));
  assert.ok(!asked.some((q) => q.get('pubDay') === berlinDay(new Date(), 0)), 'today is never asked');

  const koeln = await ctx.app.get('/api/v1/cities/koeln/public-tenders');
  assert.equal(at(koeln.json, 'meta.source_status'), 'ok');
  assert.equal(at(koeln.json, 'data.length'), 1);
  assert.equal(at(koeln.json, 'data.0.title'), 'Unterhaltsreinigung städtischer Schulen, Lose 1–3');
  const hannover = await ctx.app.get('/api/v1/cities/hannover/public-tenders');
  assert.equal(at(hannover.json, 'data.0.place'), 'Hannover');
  const kiel = await ctx.app.get('/api/v1/cities/kiel/public-tenders');
  assert.equal(at(kiel.json, 'meta.source_status'), 'no_data');

  const all = await ctx.app.get('/api/v1/tenders');
  assert.equal(at(all.json, 'meta.source_status'), 'ok');
  assert.deepEqual(
    list<{ place: string }>(all.json, 'data').map((t) => t.place),
    ['München', 'Köln', 'Hannover'],
  );
  const page = await ctx.app.get('/api/v1/tenders?limit=1&offset=1');
  assert.equal(at(page.json, 'data.length'), 1);
  assert.equal(at(page.json, 'data.0.place'), 'Köln');
  const cpv = await ctx.app.get('/api/v1/tenders?cpv=909');
  assert.deepEqual(
    list<{ place: string }>(cpv.json, 'data').map((t) => t.place),
    ['Köln', 'Hannover'],
  );
  const q = await ctx.app.get('/api/v1/tenders?q=br%C3%BCcke');
  assert.equal(at(q.json, 'data.0.place'), 'München');
  assert.equal(at((await ctx.app.get('/api/v1/tenders?q=zzzzzz')).json, 'meta.source_status'), 'no_data');
  assert.equal((await ctx.app.get('/api/v1/tenders?cpv=9a')).status, 422);
});

test('tenders: a broken day export keeps what was stored; all days failing fails the job', async () => {
  await ingestTenders(ctx.app.rt);
  fake.get(EXPORT_PATH, { body: Buffer.from('<html>Wartung</html>'), headers: { 'content-type': 'text/html' } });
  await assert.rejects(ingestTenders(ctx.app.rt), /every export failed/);
  assert.equal(at((await ctx.app.get('/api/v1/cities/koeln/public-tenders')).json, 'data.length'), 1);
});

test('tenders: 404 unknown city, disabled by toggle', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/public-tenders');
  await expectDisabled({ fake, env: { VERGABE_ENABLED: 'false' }, path: ['/api/v1/cities/koeln/public-tenders', '/api/v1/tenders'] });
});
