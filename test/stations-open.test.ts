import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, startApp } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import type { FakeUpstream } from './helpers/fake-upstream.ts';
import { register as registerStada } from './fixtures/stada/routes.ts';
import { HALTESTELLEN_PATH, register as registerDbOpenStations, STATIONSDATEN_2019_PATH, STATIONSDATEN_PATH } from './fixtures/db-open-stations/routes.ts';
import { readFileSync } from 'node:fs';
import { joinOpenStations, parseHaltestellen, parseStationsdaten } from '../src/sources/db-open-stations/open-stations.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { dataSchemaOf } from '../src/core/data-type.ts';
import { at, list, num, str } from './helpers/json.ts';

const CREDS = { DB_CLIENT_ID: 'test-client', DB_API_KEY: 'test-key' };

function registerBoth(fake: FakeUpstream) {
  registerStada(fake);
  registerDbOpenStations(fake);
}

const ctx = useFakeApp(registerBoth, { keyless: true, env: CREDS });
const names = (json: unknown) => list<{ name: string }>(json, 'data').map((s) => s.name);

test('parser: header by name, trailing ";" on some lines, several DS100 codes, decimal comma, CRLF and BOM', async () => {
  // Columns reordered against the published header and an extra column: read by name, not position.
  const stationsdaten =
    '\uFEFFStation;Bundesland;Bf DS 100 Abk.;Kat. Vst;PLZ;Ort;Neu\r\n' +
    'Köln Messe/Deutz;Nordrhein-Westfalen;KKDT;1;50679;Köln;x\r\n' +
    'Halle (Saale) Hbf;Sachsen-Anhalt;LH;2;6112;Halle ;x\r\n' +
    'Geplant;Hessen;FXX;0;60000;Frankfurt am Main;x\r\n' +
    'Ohne Halt;Hessen;FYY;5;60000;Frankfurt am Main;x\r\n';
  const haltestellen =
    'EVA_NR;DS100;IFOPT;NAME;Verkehr;Laenge;Breite;Betreiber_Name;Betreiber_Nr;Status\r\n' +
    '8003368;KKDT,KKDZ, KKDZB;;Köln Messe/Deutz;FV;6,975001;50,940874;;;;\r\n' +
    '8073368;KKDZB;;Köln Messe/Deutz Gl.11-12;RV;6,974641;50,941299;;;;\r\n' +
    '8010159;LH,LHA,LHG;;Halle (Saale) Hbf;FV;11,987085;;;;\r\n' +
    'abc;FZZ;;Kaputt;RV;8,1;50,1;;;\r\n';
  const stations = await parseStationsdaten(stationsdaten);
  assert.deepEqual(
    stations.map((s) => [s.name, s.ds100, s.category, s.post_code, s.place]),
    [
      ['Köln Messe/Deutz', 'KKDT', 1, '50679', 'Köln'],
      ['Halle (Saale) Hbf', 'LH', 2, '06112', 'Halle'],
      ['Ohne Halt', 'FYY', 5, '60000', 'Frankfurt am Main'],
    ],
    'category 0 dropped, leading zero of the post code restored, Ort trimmed',
  );
  const stops = await parseHaltestellen(haltestellen);
  assert.deepEqual(stops[0], { eva: '8003368', ds100: ['KKDT', 'KKDZ', 'KKDZB'], name: 'Köln Messe/Deutz', lat: 50.940874, lon: 6.975001 });
  assert.deepEqual([stops[2]?.lat, stops[2]?.lon], [null, null], 'half a position is none');
  assert.equal(stops.length, 3, 'a row without a numeric EVA is dropped');
  const joined = joinOpenStations(stations, stops);
  assert.deepEqual(
    joined.map((s) => [s.name, s.eva, s.evas]),
    [
      ['Köln Messe/Deutz', '8003368', ['8003368']],
      ['Halle (Saale) Hbf', '8010159', ['8010159']],
    ],
    'joined by the DS100 code; the station without a stop is left out',
  );
  // A second stop listing the station's own code adds its EVA number after the main one.
  const both = joinOpenStations(stations.slice(0, 1), [{ ...stops[1]!, ds100: ['KKDT'] }, stops[0]!]);
  assert.deepEqual(both[0]?.evas, ['8003368', '8073368']);
  await assert.rejects(parseStationsdaten('<html>Not found</html>'), /column/);
  await assert.rejects(parseHaltestellen('EVA_NR;DS100;IFOPT;NAME;Verkehr;Laenge;Breite\r\n'), /without any stop/);
  // cp1252 bytes (an editor's re-save) read like UTF-8.
  const latin = Buffer.from('Station;Bf DS 100 Abk.;Kat. Vst;PLZ;Ort\r\nK\xf6ln Hbf;KK;1;50667;K\xf6ln\r\n', 'latin1');
  assert.deepEqual((await parseStationsdaten(latin))[0]?.name, 'Köln Hbf');
});

test('the recorded 2020-03 Stationsdaten: header `Bf DS 100Abk.`, post codes without their zero, rows without PLZ/Ort, a 12-field row', async () => {
  const real = readFileSync(new URL('./fixtures/db-open-stations/DBSuS-Uebersicht_Bahnhoefe-Stand2020-03.csv', import.meta.url));
  assert.match(real.subarray(0, 120).toString('utf8'), /;Bf DS 100Abk\.;/, 'the recording really has the header without the blank');
  const stations = await parseStationsdaten(real);
  const by = (ds100: string) => stations.find((s) => s.ds100 === ds100);
  assert.deepEqual(by('KK'), { ds100: 'KK', name: 'Köln Hbf', category: 1, post_code: '50667', place: 'Köln' });
  assert.deepEqual(by('LH'), { ds100: 'LH', name: 'Halle (Saale) Hbf', category: 2, post_code: '06112', place: 'Halle' }, 'PLZ 6112 padded');
  assert.deepEqual(by('FFGG'), { ds100: 'FFGG', name: 'Frankfurt am Main Gateway Gardens', category: 4, post_code: null, place: null });
  // Seebergen's street holds an unquoted `;` (`Hauptstr. 314;OT Seebergen`): PLZ and Ort stay in their columns.
  assert.deepEqual(by('USB'), { ds100: 'USB', name: 'Seebergen', category: 6, post_code: '99869', place: 'Drei Gleichen' });
  assert.equal(by('KKTR')?.place, 'Köln-Kalk');
  assert.equal(
    stations.find((s) => s.name === 'Klein-Reken'),
    undefined,
    'no DS100: cannot be joined',
  );
  assert.ok(stations.length > 5300, `${stations.length} stations read`);
  assert.ok(
    stations.every((s) => s.post_code === null || /^\d{5}$/.test(s.post_code)),
    'every post code has five digits',
  );
});

test('the recorded 2019-03 edition (header with the blank, `Halle ` with a trailing blank) reads the same through HTTP', async (t) => {
  const app = await startApp({ ...fakeEnv(ctx.fake.url), DB_OPEN_STATIONS_BASE_URL: ctx.fake.url + STATIONSDATEN_2019_PATH });
  t.after(() => app.close());
  const r = await app.get('/api/v1/cities/halle-saale/stations');
  assert.equal(r.status, 200);
  assert.equal(str(r.json, 'meta.edition'), 'Stand 2019-03');
  assert.equal(at(r.json, 'data.0.name'), 'Halle (Saale) Hbf');
  assert.equal(at(r.json, 'data.0.post_code'), '06112');
  const koeln = await app.get('/api/v1/cities/koeln/stations');
  assert.ok(names(koeln.json).includes('Köln Hbf'));
});

test('Köln without DB credentials: the open station data answers, meta names the source and the dated edition', async () => {
  const r = await ctx.keyless.get('/api/v1/cities/koeln/stations');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(str(r.json, 'meta.answered_by'), 'db-open-stations');
  assert.equal(str(r.json, 'meta.source'), 'db-open-stations');
  assert.equal(str(r.json, 'meta.fallback_for'), 'db-stada');
  assert.match(str(r.json, 'meta.fallback_note'), /Stand 2020-03/);
  assert.equal(str(r.json, 'meta.edition'), 'Stand 2020-03');
  assert.equal(str(r.json, 'attribution.text'), 'Deutsche Bahn AG / DB InfraGO AG, CC BY 4.0');
  assert.equal(str(r.json, 'attribution.license'), 'CC BY 4.0');
  const got = names(r.json);
  // Every Köln station of the recorded 2020-03 file that the (built) Haltestellen list has a stop for;
  // Köln-Mülheim is addressed `Köln-Mülheim` there, a district of Köln.
  assert.deepEqual([...got].sort(), ['Köln Hbf', 'Köln Messe/Deutz', 'Köln Süd', 'Köln West', 'Köln-Ehrenfeld', 'Köln-Mülheim', 'Köln/Bonn Flughafen'].sort());
  assert.deepEqual(
    got,
    [...got].sort((a, b) => a.localeCompare(b, 'de')),
    'sorted by name',
  );
  assert.ok(!got.includes('Köln-Chorweiler'), 'no EVA number: left out');
  assert.equal(num(r.json, 'meta.total_matching'), 7);
  const hbf = list<Record<string, unknown>>(r.json, 'data').find((s) => s.name === 'Köln Hbf');
  assert.deepEqual(
    { eva: hbf?.eva, evas: hbf?.evas, category: hbf?.category, lat: hbf?.lat, lon: hbf?.lon, post_code: hbf?.post_code, zip: hbf?.zip },
    { eva: '8000207', evas: ['8000207'], category: 1, lat: 50.94303, lon: 6.958729, post_code: '50667', zip: '50667' },
  );
  dataSchemaOf(CATALOG.byType.get('stations')!).parse(at(r.json, 'data'));
  assert.equal(ctx.fake.count('/db-api-marketplace'), 0, 'StaDa is never asked without credentials');
  const o = await ctx.keyless.get('/api/v1/cities/koeln/overview');
  const row = (at(o.json, 'data.data_types') as { type: string; available: boolean }[]).find((d) => d.type === 'stations');
  assert.equal(row?.available, true);
});

test('Frankfurt am Main never gets Frankfurt (Oder); Ort spellings through the aliases (Frankfurt (Main), Halle, Freiburg)', async () => {
  const ffm = await ctx.keyless.get('/api/v1/cities/frankfurt-am-main/stations');
  // Gateway Gardens has neither PLZ nor Ort in the 2020-03 file: it names no city, so no city shows it.
  assert.deepEqual([...names(ffm.json)].sort(), ['Frankfurt (Main) Hbf', 'Frankfurt (Main) Süd'].sort());
  const halle = await ctx.keyless.get('/api/v1/cities/halle-saale/stations');
  assert.equal(at(halle.json, 'data.0.post_code'), '06112');
  assert.equal(at(halle.json, 'data.0.eva'), '8010159');
  const freiburg = await ctx.keyless.get('/api/v1/cities/freiburg-im-breisgau/stations');
  assert.deepEqual(names(freiburg.json), ['Freiburg (Breisgau) Hbf']);
});

test('?q= and ?limit= as with StaDa; a city without stations is no_data; the files are downloaded once for all cities', async () => {
  const before = ctx.fake.count(STATIONSDATEN_PATH) + ctx.fake.count(HALTESTELLEN_PATH);
  const q = await ctx.keyless.get(`/api/v1/cities/koeln/stations?q=${encodeURIComponent('ehrenfeld')}`);
  assert.deepEqual(names(q.json), ['Köln-Ehrenfeld']);
  const none = await ctx.keyless.get('/api/v1/cities/koeln/stations?q=Hamburg');
  assert.equal(at(none.json, 'meta.source_status'), 'no_data');
  assert.match(str(none.json, 'meta.reason'), /matches/);
  const two = await ctx.keyless.get('/api/v1/cities/koeln/stations?limit=2');
  assert.equal(at(two.json, 'data.length'), 2);
  assert.equal(at(two.json, 'meta.total_matching'), 7);
  const kiel = await ctx.keyless.get('/api/v1/cities/kiel/stations');
  assert.equal(kiel.status, 200);
  assert.equal(at(kiel.json, 'meta.source_status'), 'no_data');
  assert.equal(at(kiel.json, 'data'), null);
  assert.match(str(kiel.json, 'meta.reason'), /Ort/);
  assert.equal(ctx.fake.count(STATIONSDATEN_PATH) + ctx.fake.count(HALTESTELLEN_PATH), before, 'cached once a day, shared by every city');
});

test('download server failing (500, HTML instead of CSV) with nothing cached: 503 upstream_unavailable, never 500', async (t) => {
  const fresh = await startApp(fakeEnv(ctx.fake.url));
  t.after(() => fresh.close());
  ctx.fake.get(STATIONSDATEN_PATH, { status: 500, body: 'Internal Server Error' });
  const failed = await fresh.get('/api/v1/cities/koeln/stations');
  assert.equal(failed.status, 503);
  assert.equal(at(failed.json, 'code'), 'upstream_unavailable');
  const other = await startApp(fakeEnv(ctx.fake.url));
  t.after(() => other.close());
  ctx.fake.get(STATIONSDATEN_PATH, { file: 'db-open-stations/DBSuS-Uebersicht_Bahnhoefe-Stand2020-03.csv' });
  ctx.fake.get(HALTESTELLEN_PATH, { body: '<html><body>Wartungsarbeiten</body></html>', headers: { 'content-type': 'text/html' } });
  const garbage = await other.get('/api/v1/cities/bonn/stations');
  assert.equal(garbage.status, 503);
  assert.equal(at(garbage.json, 'code'), 'upstream_unavailable');
  assert.doesNotMatch(garbage.text, /Wartungsarbeiten/, 'no echo of the upstream body');
});

test('with DB credentials StaDa answers as before, without fallback meta', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/stations');
  assert.equal(str(r.json, 'meta.source'), 'db-stada');
  assert.equal(at(r.json, 'meta.answered_by'), undefined);
  assert.equal(at(r.json, 'meta.edition'), undefined);
  assert.equal(ctx.fake.count(STATIONSDATEN_PATH), 0);
});

test('no credentials and the fallback switched off: disabled; /sources lists the fallback', async (t) => {
  const off = await startApp({ ...fakeEnv(ctx.fake.url), DB_OPEN_STATIONS_ENABLED: 'false' });
  t.after(() => off.close());
  const r = await off.get('/api/v1/cities/koeln/stations');
  assert.equal(at(r.json, 'meta.source_status'), 'disabled');
  assert.equal(ctx.fake.count(), 0);
  const s = await ctx.keyless.get('/api/v1/sources?limit=all');
  const open = (at(s.json, 'data') as { source: string }[]).find((x) => x.source === 'db-open-stations');
  assert.deepEqual(at(open, 'fallback_for'), ['stations']);
  assert.equal(at(open, 'credentials'), 'none');
});
