import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { ASSIGNMENT_PATH, KERG2_PATH, register as registerBundeswahlleiterin } from './fixtures/bundeswahlleiterin/routes.ts';
import { parseKerg2 } from '../src/sources/bundeswahlleiterin/kerg2.ts';
import { parseAssignment } from '../src/sources/bundeswahlleiterin/assignment.ts';
import { must } from './helpers/must.ts';
import { at, str } from './helpers/json.ts';

const KERG2 = fixture('bundeswahlleiterin/btw21_kerg2_subset_bund_wk093-koeln-I.csv').toString();
const ASSIGNMENT = fixture('bundeswahlleiterin/wkr_gemeinden_koeln-bonn-leverkusen.csv').toString();
/** The assignment with only the given rows after the header (the header line ends the preamble). */
const assignmentWith = (...rows: string[]) => ASSIGNMENT.slice(0, ASSIGNMENT.indexOf('\n093;') + 1) + rows.join('\n') + '\n';

const ctx = useFakeApp(registerBundeswahlleiterin);
const { fake } = ctx;

/** Both files are cached app-wide for days: a test that changes one asks a fresh app. */
async function getFresh(path: string) {
  const app = await startApp(fakeEnv(fake.url));
  try {
    return await app.get(path);
  } finally {
    await app.close();
  }
}

test('parser: kerg2 constituency rows, preamble status, decimal commas, parties that did not stand left out', () => {
  const r = parseKerg2(KERG2);
  assert.equal(r.election, 'Bundestagswahl');
  assert.equal(r.election_date, '2021-09-26');
  assert.equal(r.result_status, 'Endgültig');
  assert.deepEqual(Object.keys(r.constituencies), ['93']);
  const k = must(r.constituencies['93'], 'constituency 93');
  assert.equal(k.name, 'Köln I');
  assert.equal(k.eligible_voters, 190630);
  assert.equal(k.voters, 140901);
  assert.equal(k.valid_second_votes, 140080);
  assert.deepEqual(k.second_votes[0], { party: 'CDU', votes: 27695, share_pct: 19.770845 });
  // Tierschutzpartei has second votes, but no first-vote candidate (empty Anzahl): only the second vote counts
  assert.equal(k.second_votes.find((p) => p.party === 'Tierschutzpartei')?.votes, 1704);
  assert.equal(k.second_votes.length, 8);
  assert.throws(() => parseKerg2('<html>not found</html>'), /header row/);
});

test('parser: a quoted field may hold the separator and a line break (kerg2 read as CSV, not line by line)', () => {
  const row = 'BT;26.09.2021;Wahlkreis;093;Köln I;LAND;05;Partei;CDU;1;2;27695;19,770845;36565;26,375775;-24,25817;-6,604929;';
  const quoted = row.replace(';CDU;', ';"Christlich Demokratische\r\nUnion; Köln";');
  const k = must(parseKerg2(KERG2.replace(row, quoted)).constituencies['93'], 'constituency 93');
  assert.deepEqual(k.second_votes[0], { party: 'Christlich Demokratische\r\nUnion; Köln', votes: 27695, share_pct: 19.770845 });
  assert.equal(k.second_votes.length, 8);
});

test('parser: assignment keys municipalities by AGS without the Gemeindeverband segment', () => {
  const a = parseAssignment(ASSIGNMENT);
  assert.deepEqual(a.byAgs['05315000'], [93, 94, 95, 101]);
  assert.deepEqual(a.byAgs['05316000'], [101]);
  assert.equal(a.municipalities['101'], 2);
  assert.equal(a.municipalities['93'], 1);
  assert.throws(() => parseAssignment('a;b;c\n1;2;3\n'), /header row/);
});

test('GET election: Köln lists its recorded constituency; missing and shared ones keep the totals null', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/election');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const d = at(r.json, 'data');
  assert.equal(at(d, 'election_date'), '2021-09-26');
  assert.equal(at(d, 'constituencies.length'), 1);
  const k = at(d, 'constituencies.0');
  assert.equal(at(k, 'number'), 93);
  assert.equal(at(k, 'shared'), false);
  assert.equal(at(k, 'turnout_pct'), 73.913);
  assert.deepEqual(at(k, 'second_votes.0'), { party: 'SPD', votes: 36933, share_pct: 26.365648 });
  assert.equal(at(d, 'city_totals'), null);
  assert.deepEqual(at(r.json, 'meta.missing_constituencies'), [94, 95, 101]);
  assert.match(str(r.json, 'attribution.text'), /Bundeswahlleiterin/);
});

test('election: a city with only its own constituencies gets them added up', async () => {
  fake.get(ASSIGNMENT_PATH, { body: assignmentWith('093;Köln I;05;3;15;0000;000;Nordrhein-Westfalen;Köln;Köln;;Köln, Stadt;;;;;') });
  const r = await getFresh('/api/v1/cities/koeln/election');
  const t = at(r.json, 'data.city_totals');
  assert.equal(at(t, 'eligible_voters'), 190630);
  assert.equal(at(t, 'voters'), 140901);
  assert.equal(at(t, 'turnout_pct'), 73.913);
  assert.equal(at(t, 'second_votes.0.party'), 'SPD');
  assert.equal(at(t, 'second_votes.0.share_pct'), 26.366);
});

test('election: a constituency shared with another municipality is flagged and never attributed', async () => {
  fake.get(ASSIGNMENT_PATH, {
    body: assignmentWith(
      '093;Köln I;05;3;15;0000;000;Nordrhein-Westfalen;Köln;Köln;;Köln, Stadt;;;;;',
      '093;Köln I;05;3;16;0000;000;Nordrhein-Westfalen;Köln;Leverkusen;;Leverkusen, Stadt;;;;;',
    ),
  });
  const r = await getFresh('/api/v1/cities/leverkusen/election');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.constituencies.0.shared'), true);
  assert.equal(at(r.json, 'data.city_totals'), null);
  assert.match(str(r.json, 'meta.city_totals_reason'), /other municipalities/);
});

test('election: no_data when the assignment lacks the city or the results lack its constituencies', async () => {
  const dresden = await ctx.app.get('/api/v1/cities/dresden/election');
  assert.equal(at(dresden.json, 'meta.source_status'), 'no_data');
  assert.match(str(dresden.json, 'meta.reason'), /14612000/);
  const bonn = await ctx.app.get('/api/v1/cities/bonn/election');
  assert.equal(at(bonn.json, 'meta.source_status'), 'no_data');
  assert.deepEqual(at(bonn.json, 'meta.constituency_numbers'), [96]);
});

test('election: malformed results file is a 503 problem', async () => {
  fake.get(KERG2_PATH, { body: '<!DOCTYPE html><title>Wartung</title>', headers: { 'content-type': 'text/html' } });
  const r = await getFresh('/api/v1/cities/koeln/election');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
});

test('election: 404 unknown city, 503 dead upstream, disabled by toggle', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/election');
  await expectUnavailable({ fake, path: '/api/v1/cities/muenchen/election' });
  await expectDisabled({ fake, env: { BUNDESWAHLLEITERIN_ENABLED: 'false' }, path: '/api/v1/cities/koeln/election' });
});
