import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { fixture, type Reply } from './helpers/fake-upstream.ts';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv } from './helpers/app.ts';
import { fixtureSettings, registerAllFixtures } from './fixtures/index.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { main } from '../scripts/check-upstreams.ts';
import type { CheckResult } from '../scripts/check/run.ts';

/**
 * `npm run check-upstreams` offline: against the fake upstream serving every fixture at the
 * upstreams' real paths (the settings under which the fixtures answer: fixtureSettings), and
 * against altered answers that must show as parse_error naming what changed.
 */
const fake = useFakeUpstream(registerAllFixtures);
const dir = mkdtempSync(join(tmpdir(), 'check-upstreams-test-'));
const WEATHER = '/current_weather';
const weatherBody = () => JSON.parse(fixture('brightsky/current_weather-feldberg-2022-07-24.json').toString()) as Record<string, Record<string, unknown>>;

interface Run {
  code: number;
  out: string;
  report: CheckResult[];
}

let runs = 0;
async function check(args: string[], env: Record<string, string> = fixtureSettings()): Promise<Run> {
  const json = join(dir, `report-${++runs}.json`);
  const lines: string[] = [];
  const code = await main(['--json', json, ...args], { ...fakeEnv(fake.url), ...env }, { out: (l) => lines.push(l), err: () => {} });
  const report = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as CheckResult[]) : [];
  return { code, out: lines.join('\n'), report };
}

function only(r: Run, type: string): CheckResult {
  const rows = r.report.filter((x) => x.type === type);
  assert.equal(rows.length, 1, `one ${type} row: ${JSON.stringify(r.report)}`);
  return rows[0]!;
}

test('check-upstreams: every data type answers ok against the fake upstream, with a table row and a JSON row each', async () => {
  const r = await check([]);
  assert.equal(r.code, 0);
  const types = new Set(r.report.map((x) => x.type));
  assert.deepEqual([...types].sort(), CATALOG.all.map((dt) => dt.type).sort(), 'every data type is checked');
  // Magdeburg's and Wuppertal's Mobilithek subscriptions have no recording (test/fixtures/mobilithek/README.md):
  // their fakes answer as an idle subscription does, so no_data is the honest verdict there.
  const unrecorded = ['mobilithek-parking-magdeburg', 'mobilithek-parking-wuppertal'];
  const notOk = r.report.filter((x) => x.verdict !== 'ok' && !(x.verdict === 'no_data' && unrecorded.includes(x.source ?? '')));
  assert.deepEqual(notOk, [], 'every check answers ok on its fixtures');
  assert.deepEqual(
    r.report
      .filter((x) => x.verdict === 'no_data')
      .map((x) => x.source)
      .sort(),
    unrecorded,
  );
  for (const row of r.report) {
    assert.deepEqual(Object.keys(row).slice(0, 4), ['type', 'city', 'verdict', 'detail']);
    assert.ok(row.detail.length > 0, `${row.type}: a one-line value summary`);
  }
  for (const dt of CATALOG.all) assert.match(r.out, new RegExp(`^${dt.type} +\\S+ +\\S+ +(ok|no_data) `, 'm'), `a table row for ${dt.type}`);
  // Variants and keyless fallbacks are upstreams of their own: each is called too.
  assert.ok(r.report.some((x) => x.type === 'parking' && x.source === 'parkapi-v3'));
  assert.ok(r.report.some((x) => x.type === 'stations' && x.source === 'db-open-stations'));
  assert.ok(
    r.report.some((x) => x.type === 'transit' && x.verdict === 'ok'),
    'stored types are read after their job ran',
  );
  const ua = fake.requests.map((q) => q.headers['user-agent']);
  assert.ok(ua.length > 0 && ua.every((u) => typeof u === 'string' && u.startsWith('Stadtdaten/')), 'every call names the project');
});

const altered: [string, Reply, RegExp][] = [
  [
    'a renamed member',
    (() => {
      const b = weatherBody();
      b.weather!.observation_time = b.weather!.timestamp;
      delete b.weather!.timestamp;
      return { json: b };
    })(),
    /weather\.timestamp/,
  ],
  [
    'a changed type',
    (() => {
      const b = weatherBody() as unknown as { sources: { lat: unknown }[] };
      b.sources[0]!.lat = '47.8749';
      return { json: b };
    })(),
    /Bright Sky current_weather \$\.sources\[0\]\.lat: expected number, received string/,
  ],
  [
    'an HTML error page served with 200',
    { headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html><head><title>Wartungsarbeiten</title></head></html>' },
    /unparseable JSON .*HTTP 200, text\/html, .*Wartungsarbeiten/,
  ],
  ['an empty body', { headers: { 'content-type': 'application/json' }, body: '' }, /unparseable JSON .*HTTP 200, application\/json, empty body/],
];
for (const [what, reply, detail] of altered) {
  test(`check-upstreams: ${what} is a parse_error that names it`, async () => {
    fake.get(WEATHER, reply);
    const row = only(await check(['--type', 'weather']), 'weather');
    assert.equal(row.verdict, 'parse_error');
    assert.match(row.detail, detail);
  });
}

test('check-upstreams: a stored type is checked through its job, whose parser meeting an HTML page is a parse_error', async () => {
  fake.get(/^\/fme_processed\/solar\/gem\/\d{4}\/\d{4}\.json$/, { headers: { 'content-type': 'text/html' }, body: '<html><body>Wartung</body></html>' });
  const row = (await check(['--type', 'solar-roofs', '--source', 'energieatlas-nrw'])).report[0]!;
  assert.equal(row.verdict, 'parse_error');
  assert.match(row.detail, /^Energieatlas NRW \d{4}\.json is not JSON \(HTTP 200, text\/html, .*Wartung/);
});

test('check-upstreams: an error status is an http_error with the status; missing credentials are disabled naming the variable', async () => {
  fake.get(WEATHER, { status: 502, body: 'bad gateway' });
  assert.match(only(await check(['--type', 'weather']), 'weather').detail, /^HTTP 502/);
  assert.equal(only(await check(['--type', 'weather']), 'weather').verdict, 'http_error');
  const keyless = await check(['--type', 'departures-rmv'], {});
  assert.deepEqual(only(keyless, 'departures-rmv'), {
    type: 'departures-rmv',
    city: 'frankfurt-am-main',
    verdict: 'disabled',
    detail: 'credentials missing: set RMV_API_KEY',
    source: 'rmv',
    params: { stop: '3000010' },
  });
  assert.equal(fake.count('/hapi'), 0, 'a disabled source is not called');
});

test('check-upstreams --baseline: the exit code says whether a check regressed', async () => {
  const clean = await check(['--type', 'weather,air-uba']);
  const baseline = join(dir, 'baseline.json');
  writeFileSync(baseline, JSON.stringify(clean.report));
  assert.equal((await check(['--type', 'weather,air-uba', '--baseline', baseline])).code, 0, 'the same verdicts: no regression');
  fake.get(WEATHER, { headers: { 'content-type': 'text/html' }, body: '<html>maintenance</html>' });
  const worse = await check(['--type', 'weather,air-uba', '--baseline', baseline]);
  assert.equal(worse.code, 1);
  assert.match(worse.out, /^REGRESSION weather freiburg-im-breisgau \(dwd-brightsky\): ok -> parse_error: /m);
  assert.match(worse.out, /1 regressions against/);
  writeFileSync(join(dir, 'not-a-report.json'), '{"type":"weather"}');
  assert.equal((await check(['--baseline', join(dir, 'not-a-report.json')])).code, 2, 'a file that is no report is a usage error');
  assert.equal((await check(['--type', 'no-such-type'])).code, 2);
});

test('check-upstreams --record: raw answers with provenance in the fixture layout, credentials removed', async () => {
  const rec = join(dir, 'recorded');
  const r = await check(['--type', 'weather,departures-rmv', '--record', rec]);
  assert.equal(r.code, 0);
  const weather = readdirSync(join(rec, 'brightsky', 'recorded'));
  const body = weather.find((f) => f.startsWith('current_weather') && f.endsWith('.json') && !f.endsWith('.provenance.json'));
  assert.ok(body, `a recorded current_weather answer: ${weather.join(', ')}`);
  assert.deepEqual(
    readFileSync(join(rec, 'brightsky', 'recorded', body)),
    fixture('brightsky/current_weather-feldberg-2022-07-24.json'),
    'the bytes as served',
  );
  const prov = JSON.parse(readFileSync(join(rec, 'brightsky', 'recorded', `${body}.provenance.json`), 'utf8')) as Record<string, unknown>;
  assert.equal(prov.status, 200);
  assert.equal(prov.source, 'dwd-brightsky');
  assert.match(String(prov.url), /\/current_weather\?lat=/);
  assert.match(String(prov.recorded_at), /^\d{4}-\d\d-\d\dT/);
  assert.equal((prov.headers as Record<string, string>)['content-type'], 'application/json');
  assert.deepEqual(prov.types, ['weather']);
  const rmv = readdirSync(join(rec, 'rmv', 'recorded')).filter((f) => f.endsWith('.provenance.json'));
  assert.equal(rmv.length, 1);
  const rmvProv = readFileSync(join(rec, 'rmv', 'recorded', rmv[0]!), 'utf8');
  assert.doesNotMatch(rmvProv, /demo-credential/, 'no credential in the provenance');
  assert.match(rmvProv, /accessId=<RMV_API_KEY>/);
  const index = readFileSync(join(rec, 'RECORDINGS.md'), 'utf8');
  assert.match(index, /\| `brightsky\/recorded\/current_weather[^`]*\.json` \| dwd-brightsky \| GET .*\/current_weather\?.* \| 200 \| \d{4}-\d\d-\d\d \|/);
});

test('check-upstreams: the script runs as a CLI; --replay points every source at one origin, keeping the real paths', async () => {
  const env = { ...process.env, ...fixtureSettings() };
  const args = ['scripts/check-upstreams.ts', '--type', 'holidays', '--replay', fake.url];
  const child = spawn(process.execPath, args, { env, cwd: new URL('..', import.meta.url).pathname });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, out);
  assert.match(out, /^holidays +augsburg +openholidays +ok /m);
  // Nager.Date, the stand-in while OpenHolidays fails, is a source of its own and checked too.
  assert.match(out, /^holidays +augsburg +nager-date +ok /m);
  assert.match(out, /2 checks of 1 data types: 2 ok/);
});

test("check-upstreams leaves a deployment's stores alone: no connection to its PostgreSQL or Redis, no history or store file", async () => {
  // Stand-ins for a deployment's PostgreSQL and Redis: listeners that only count who connects.
  const connections = { postgres: 0, redis: 0 };
  const listen = async (name: keyof typeof connections) => {
    const server = createServer((socket) => {
      connections[name]++;
      socket.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return server;
  };
  const [postgres, redis] = [await listen('postgres'), await listen('redis')];
  const stores = mkdtempSync(join(tmpdir(), 'check-upstreams-stores-'));
  try {
    const deployment = {
      ...fixtureSettings(),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${(postgres.address() as AddressInfo).port}/production`,
      REDIS_URL: `redis://127.0.0.1:${(redis.address() as AddressInfo).port}`,
      HISTORY_PATH: join(stores, 'history.sqlite'),
      STORE_PATH: join(stores, 'store.sqlite'),
    };
    const r = await check(['--type', 'weather'], deployment);
    assert.equal(r.code, 0, r.out);
    assert.ok(r.report.length > 0 && r.report.every((x) => x.verdict === 'ok'), r.out);
    assert.deepEqual(connections, { postgres: 0, redis: 0 });
    assert.deepEqual(readdirSync(stores), [], 'neither the history nor the store file was created');
  } finally {
    postgres.close();
    redis.close();
  }
});

test('CHECK_UPSTREAMS_RESULT_PATH: the run writes the date and verdict per source that /api/v1/sources shows', async () => {
  const path = join(dir, 'last-check.json');
  const before = Date.now();
  const r = await check(['--type', 'weather,solar-roofs'], { ...fixtureSettings(), CHECK_UPSTREAMS_RESULT_PATH: path });
  assert.equal(r.code, 0);
  const written = JSON.parse(readFileSync(path, 'utf8')) as {
    checked_at: string;
    sources: Record<string, { verdict: string; checks: number; checked_at: string }>;
  };
  const at = Date.parse(written.checked_at);
  assert.ok(at >= before && at <= Date.now(), 'dated with the run');
  const weather = r.report.filter((x) => x.source === 'dwd-brightsky');
  assert.deepEqual(
    { verdict: written.sources['dwd-brightsky']?.verdict, checks: written.sources['dwd-brightsky']?.checks },
    { verdict: 'ok', checks: weather.length },
  );
  assert.deepEqual(Object.keys(written.sources).sort(), [...new Set(r.report.map((x) => x.source))].sort(), 'only the sources this run checked');
});
