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

const HOPPEGARTEN = 'vergabe/release_2026-09-16_hoppegarten_0010ea9b-1249-49d6-afe2-6a10ac0d7b74.json';
const GOETTINGEN = 'vergabe/release_2026-07-14_goettingen-award_e2d53265-c8cc-4ded-b7f7-abd60bbc3e51.json';

test('parser (recorded releases): buyer reference id is not the party id, CPV only in items, no tender period, UTC dates', () => {
  const r = nth(releasesOf(JSON.parse(fixture(HOPPEGARTEN).toString())), 0);
  // The export's buyer reference carries the organisation's own id, the party the ORG-nnnn id.
  assert.notEqual(r.buyer?.id, nth(r.parties ?? [], 0).id);
  const t = tenderOf(r)!;
  assert.equal(t.ocid, 'ocds-mnwr74-f96533a2-d790-4874-8b0d-3dd88d695b15');
  assert.equal(t.notice_id, '0010ea9b-1249-49d6-afe2-6a10ac0d7b74');
  assert.equal(t.buyer_name, 'Landesbetrieb Straßenwesen Brandenburg Betriebssitz Hoppegarten');
  assert.deepEqual([t.street, t.post_code, t.place, t.nuts], ['Lindenallee 51', '15366', 'Hoppegarten', 'DE409']);
  assert.deepEqual(t.cpv, ['34992200']);
  assert.equal(t.main_category, 'goods');
  assert.equal(t.procedure, 'Open');
  assert.equal(t.published, '2026-09-16T04:06:28+02:00');
  assert.equal(t.deadline, null);
  assert.equal(t.value_eur, null);
  assert.deepEqual(t.tags, ['tender']);
  const award = nth(releasesOf(JSON.parse(fixture(GOETTINGEN).toString())), 0);
  assert.equal(award.buyer?.id, '031590016016-0-80', 'here the buyer reference carries the identifier of party ORG-0001');
  assert.equal(tenderOf(award)?.street, 'Hiroshimaplatz');
});

test('tenders (recorded exports): a real award and a real tender, each read from the export of its own day', async () => {
  await ingestTenders(ctx.app.rt, undefined, new Date('2026-07-15T10:00:00Z'));
  const asked = fake.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('pubDay'));
  assert.ok(asked.includes('2026-07-14'));
  const g = await ctx.app.get('/api/v1/cities/goettingen/public-tenders');
  assert.equal(at(g.json, 'meta.source_status'), 'ok');
  assert.equal(at(g.json, 'data.length'), 1);
  const award = list<Record<string, unknown>>(g.json, 'data')[0]!;
  assert.equal(award.notice_id, 'e2d53265-c8cc-4ded-b7f7-abd60bbc3e51');
  assert.equal(award.title, 'Lieferung und Installation Bühnenbeleuchtung');
  assert.equal(award.buyer_name, 'Stadt Göttingen');
  assert.equal(award.place, 'Göttingen');
  assert.equal(award.post_code, '37083');
  assert.deepEqual(award.cpv, ['45237000', '45212320', '45311200', '45314320']);
  assert.equal(award.value_eur, 778168);
  assert.equal(award.main_category, 'works');
  assert.equal(award.published, '2026-07-14T00:00:00+02:00');
  assert.equal(award.deadline, null);
  assert.deepEqual(award.tags, ['award']);
  assert.equal((award.description as string).length, 500, 'the long notice text is cut');

  await ingestTenders(ctx.app.rt, undefined, new Date('2026-09-17T10:00:00Z'));
  const signs = await ctx.app.get('/api/v1/tenders?q=verkehrszeichen');
  assert.equal(at(signs.json, 'meta.source_status'), 'ok');
  assert.equal(at(signs.json, 'data.length'), 1);
  assert.equal(at(signs.json, 'data.0.place'), 'Hoppegarten');
  assert.equal(at(signs.json, 'data.0.published'), '2026-09-16T04:06:28+02:00');
  const other = await ctx.app.get('/api/v1/cities/potsdam/public-tenders');
  assert.equal(at(other.json, 'meta.source_status'), 'no_data', 'a review body in Potsdam is not a buyer there');
});
