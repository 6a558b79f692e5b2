import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { register as registerSmard } from './fixtures/smard/routes.ts';
import { register as registerPegelonline } from './fixtures/pegelonline/routes.ts';
import { register as registerBrightsky } from './fixtures/brightsky/routes.ts';
import { at, num, str } from './helpers/json.ts';
import { freshSchema, postgresReachable } from './helpers/postgres.ts';
import { DatabaseSync } from 'node:sqlite';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { loadAppConfig } from '../src/startup.ts';
import { MIGRATIONS, SCHEMA_VERSION_TABLE } from '../src/history/migrations.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call } from './mcp-shared.ts';

const fake = useFakeUpstream((f) => {
  registerSmard(f);
  registerPegelonline(f);
  registerBrightsky(f);
});
/** The current quarter-hour block of day-ahead prices the fixtures serve (its latest published slot is the recorded value). */
const PRICE_BLOCK = '/app/chart_data/4169/DE-LU/4169_DE-LU_quarterhour_1794783600000.json';
/** The real hourly week SMARD published for 2026-09-28 (what the price backfill reads). */
const BACKFILL_WEEK = { from: '2026-09-28T00:00+02:00', to: '2026-10-05T00:00+02:00' };

type Rows = Record<string, unknown>[];

/** The same behaviour on each store: SQLite (a file per test run) always, PostgreSQL when reachable. */
function suite(name: string, storeEnv: () => Promise<{ env: Record<string, string>; done(): Promise<void> }>) {
  describe(`history on ${name}`, () => {
    let env: Record<string, string> = {};
    let done = async () => {};
    let app: TestApp;
    const open = async () => startApp({ ...fakeEnv(fake.url), ...env });
    /** A request, then the recorder's writes (and its backfill) finished: a latch, not a wait. */
    const record = async (a: TestApp, path: string) => {
      const res = await a.get(path);
      assert.equal(res.status, 200);
      await a.history?.settled();
    };
    before(async () => {
      ({ env, done } = await storeEnv());
      app = await open();
    });
    after(async () => {
      await app.close();
      await done();
    });

    test('a city without a recording is no_data, naming when recording starts', async () => {
      const res = await app.get('/api/v1/cities/hamburg/power-price/history');
      assert.equal(res.status, 200);
      assert.equal(str(res.json, 'meta.source_status'), 'no_data');
      assert.deepEqual(at(res.json, 'data'), []);
      assert.match(str(res.json, 'meta.note'), /recording starts with its first answer/);
    });

    test('a served value is recorded with its as_of, source and licence; the past is backfilled and flagged', async () => {
      await record(app, '/api/v1/cities/berlin/power-price');
      const now = await app.get('/api/v1/cities/berlin/power-price');
      const asOf = str(now.json, 'data.bidding_zone.latest.start');
      const res = await app.get(`/api/v1/cities/berlin/power-price/history?from=2026-11-01&to=2026-11-30`);
      assert.equal(res.status, 200);
      const rows = at(res.json, 'data') as Rows;
      const live = rows.filter((r) => r.backfilled === false);
      assert.equal(live.length, 1);
      assert.equal(Date.parse(String(live[0]!.as_of)), Date.parse(asOf));
      assert.equal(live[0]!.value, at(now.json, 'data.bidding_zone.latest.price_eur_mwh'));
      const series = at(res.json, 'meta.series.0') as Record<string, unknown>;
      assert.deepEqual([series.field, series.unit, series.source, series.license], ['price_eur_mwh', '€/MWh', 'smard', 'CC BY 4.0']);
      // The backfill: the real week of hourly prices SMARD published, every slot flagged.
      const past = await app.get(
        `/api/v1/cities/berlin/power-price/history?from=${encodeURIComponent(BACKFILL_WEEK.from)}&to=${encodeURIComponent(BACKFILL_WEEK.to)}`,
      );
      const week = (JSON.parse(fixture('smard/4169_DE-LU_hour_1790546400000.json').toString()) as { series: [number, number | null][] }).series;
      const pastRows = at(past.json, 'data') as Rows;
      assert.equal(pastRows.length, week.filter(([, v]) => v !== null).length);
      assert.ok(pastRows.every((r) => r.backfilled === true));
      assert.equal(pastRows[0]!.value, week[0]![1]);
      assert.equal(at(past.json, 'meta.backfilled'), true);
    });

    /** The points of a recorded span, split into the served (live) ones and the backfilled ones. */
    const span = async (path: string) => {
      const res = await app.get(path);
      assert.equal(res.status, 200);
      const rows = at(res.json, 'data') as Rows;
      return { res, live: rows.filter((r) => r.backfilled === false), past: rows.filter((r) => r.backfilled === true) };
    };

    test("water-level: the nearest gauge's last 30 days of measurements are backfilled and flagged, before the served value", async () => {
      await record(app, '/api/v1/cities/koeln/water-level');
      const { res, live, past } = await span('/api/v1/cities/koeln/water-level/history?from=2026-09-01&to=2026-09-11');
      assert.deepEqual(
        live.map((r) => [Date.parse(String(r.as_of)), r.value]),
        [[Date.parse('2026-09-10T18:15:00+02:00'), 66]],
      );
      const measured = JSON.parse(fixture('pegelonline/measurements-W-koeln-P30D-constructed.json').toString()) as { timestamp: string; value: number }[];
      assert.deepEqual(
        past.map((r) => [Date.parse(String(r.as_of)), r.field, r.value]),
        measured.map((m) => [Date.parse(m.timestamp), 'value_cm', m.value]),
      );
      assert.ok(past.every((r) => Date.parse(String(r.as_of)) < Date.parse(String(live[0]!.as_of))));
      assert.equal(num(res.json, 'meta.series.0.backfilled_points'), measured.length);
    });

    test('weather: the hourly past weather at the city point is backfilled and flagged for each recorded field, before the served value', async () => {
      await record(app, '/api/v1/cities/freiburg-im-breisgau/weather');
      const { res, live, past } = await span('/api/v1/cities/freiburg-im-breisgau/weather/history?from=2022-07-20&to=2022-07-25');
      const served = Date.parse('2022-07-24T15:30:00+00:00');
      assert.deepEqual(live.map((r) => [Date.parse(String(r.as_of)), r.field, r.value]).sort(), [
        [served, 'precipitation_mm_60min', 0],
        [served, 'relative_humidity_pct', 33],
        [served, 'temperature_c', 32.1],
        [served, 'wind_speed_kmh', 6.1],
      ]);
      const hours = (
        JSON.parse(fixture('brightsky/weather-feldberg-2022-07-22-to-24-constructed.json').toString()) as { weather: Record<string, number | string>[] }
      ).weather;
      const fields = {
        temperature_c: 'temperature',
        relative_humidity_pct: 'relative_humidity',
        wind_speed_kmh: 'wind_speed',
        precipitation_mm_60min: 'precipitation',
      };
      assert.equal(past.length, hours.length * 4);
      for (const [field, key] of Object.entries(fields)) {
        assert.deepEqual(
          past.filter((r) => r.field === field).map((r) => [Date.parse(String(r.as_of)), r.value]),
          hours.map((h) => [Date.parse(String(h.timestamp)), h[key]]),
        );
      }
      assert.ok(past.every((r) => Date.parse(String(r.as_of)) < served));
      assert.equal(at(res.json, 'meta.backfilled'), true);
    });

    test('every=1d downsamples into daily buckets with min, mean, max and count', async () => {
      await record(app, '/api/v1/cities/berlin/power-price');
      const res = await app.get(
        `/api/v1/cities/berlin/power-price/history?from=${encodeURIComponent(BACKFILL_WEEK.from)}&to=${encodeURIComponent(BACKFILL_WEEK.to)}&every=1d`,
      );
      assert.equal(res.status, 200);
      const rows = at(res.json, 'data') as Rows;
      // UTC days: the Berlin week starts at 22:00 UTC, so it touches 8 of them.
      assert.equal(rows.length, 8);
      assert.equal(
        rows.reduce((n, r) => n + Number(r.n), 0),
        168,
      );
      for (const r of rows) assert.ok(Number(r.min) <= Number(r.mean) && Number(r.mean) <= Number(r.max));
      assert.equal(num(res.json, 'meta.series.0.gaps'), 0);
    });

    test('the same value served again, even by a restarted instance, is kept once', async () => {
      await record(app, '/api/v1/cities/muenchen/power-price');
      const second = await open();
      try {
        await record(second, '/api/v1/cities/muenchen/power-price');
        const res = await second.get('/api/v1/cities/muenchen/power-price/history?from=2026-11-01&to=2026-11-30');
        assert.equal((at(res.json, 'data') as Rows).filter((r) => r.backfilled === false).length, 1);
      } finally {
        await second.close();
      }
    });

    test('a new upstream value is a second point, each with its own as_of', async () => {
      await record(app, '/api/v1/cities/koeln/power-price');
      // SMARD publishes the next quarter hour: the block's first null slot gets a value.
      const block = JSON.parse(fixture(PRICE_BLOCK.replace('/app/chart_data/4169/DE-LU/', 'smard/')).toString()) as { series: [number, number | null][] };
      const next = block.series.findIndex(([, v]) => v === null);
      block.series[next]![1] = 99.5;
      fake.get(PRICE_BLOCK, { json: block });
      const second = await open();
      try {
        await record(second, '/api/v1/cities/koeln/power-price');
        const res = await second.get('/api/v1/cities/koeln/power-price/history?from=2026-11-01&to=2026-11-30');
        const live = (at(res.json, 'data') as Rows).filter((r) => r.backfilled === false);
        assert.equal(live.length, 2);
        assert.notEqual(live[0]!.as_of, live[1]!.as_of);
        assert.equal(live[1]!.value, 99.5);
      } finally {
        await second.close();
      }
    });

    test("the refresh job asks again for the cities with a recording, at the type's cadence, without a request", async () => {
      await record(app, '/api/v1/cities/stuttgart/power-load');
      const file = 'smard/410_DE_hour_1794783600000.json';
      const block = JSON.parse(fixture(file).toString()) as { series: [number, number | null][] };
      block.series[block.series.findIndex(([, v]) => v === null)]![1] = 41_000;
      fake.get(`/app/chart_data/410/DE/410_DE_hour_1794783600000.json`, { json: block });
      const second = await open();
      try {
        const job = second.historyJobs.find((j) => j.name === 'history-power-load')!;
        assert.equal(job.intervalMs, 600_000, 'the cache window of power-load');
        await job.run(second.rt, () => undefined, new AbortController().signal);
        await second.history?.settled();
        const res = await second.get('/api/v1/cities/stuttgart/power-load/history?from=2026-11-10&to=2026-11-30');
        const live = (at(res.json, 'data') as Rows).filter((r) => r.backfilled === false);
        assert.deepEqual(
          live.map((r) => r.value),
          [at(block, `series.${block.series.findIndex(([, v]) => v === 41_000) - 1}.1`), 41_000],
        );
      } finally {
        await second.close();
      }
    });

    test('compare at a past moment answers from history', async () => {
      await record(app, '/api/v1/cities/berlin/power-price');
      const res = await app.get('/api/v1/compare?resource=power-price&cities=berlin,hamburg&at=2026-10-01T12:00Z');
      assert.equal(res.status, 200);
      const [berlin, hamburg] = at(res.json, 'data') as Rows;
      assert.equal(berlin!.source_status, 'ok');
      assert.equal(typeof berlin!.value, 'number');
      assert.equal(Date.parse(String(berlin!.as_of)), Date.parse('2026-10-01T12:00Z'));
      assert.equal(hamburg!.source_status, 'no_data');
      assert.equal(str(res.json, 'meta.at'), '2026-10-01T14:00:00+02:00');
    });

    test('the MCP history tool answers the same rows as REST', async () => {
      await record(app, '/api/v1/cities/berlin/power-price');
      const client = new Client({ name: 'stadtdaten-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
      try {
        const range = { from: BACKFILL_WEEK.from, to: BACKFILL_WEEK.to, every: '1d' };
        const r = await call(client, 'history', { city: 'Berlin', type: 'power-price', ...range });
        assert.notEqual(r.isError, true);
        const rest = await app.get(`/api/v1/cities/berlin/power-price/history?${new URLSearchParams(range).toString()}`);
        assert.deepEqual(at(r.structuredContent, 'data'), at(rest.json, 'data'));
        const bad = await call(client, 'history', { city: 'berlin', type: 'power-price', every: 'weekly' });
        assert.equal(bad.isError, true);
      } finally {
        await client.close();
      }
    });

    test('health reports where the history is kept and its size', async () => {
      const res = await app.get('/api/v1/health');
      assert.equal(at(res.json, 'data.history.kind'), name === 'PostgreSQL' ? 'postgres' : 'sqlite');
      assert.ok(num(res.json, 'data.history.bytes') > 0);
      assert.ok(num(res.json, 'data.history.series') >= 1);
    });

    // Last in the suite: it drops the type's old points in every city.
    test("the refresh job drops points older than the type's retention", async () => {
      await record(app, '/api/v1/cities/berlin/power-price');
      const short = await startApp({ ...fakeEnv(fake.url), ...env, HISTORY_RETENTION_DAYS: '1' });
      try {
        const job = short.historyJobs.find((j) => j.name === 'history-power-price')!;
        await job.run(short.rt, () => undefined, new AbortController().signal);
        await short.history?.settled();
        const res = await short.get(
          `/api/v1/cities/berlin/power-price/history?from=${encodeURIComponent(BACKFILL_WEEK.from)}&to=${encodeURIComponent(BACKFILL_WEEK.to)}`,
        );
        assert.equal(str(res.json, 'meta.source_status'), 'no_data');
        assert.equal(str(res.json, 'meta.note'), 'nothing was recorded in this span');
      } finally {
        await short.close();
      }
    });
  });
}

suite('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-history-'));
  return { env: { HISTORY_PATH: join(dir, 'history.sqlite') }, done: async () => rmSync(dir, { recursive: true, force: true }) };
});

if (await postgresReachable()) {
  suite('PostgreSQL', async () => {
    const schema = await freshSchema();
    return { env: { DATABASE_URL: schema.url }, done: schema.drop };
  });
}

test('an SQLite history of schema version 1 is migrated in order at start, its points rolled up by day', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-history-v1-'));
  const file = join(dir, 'history.sqlite');
  const v1 = new DatabaseSync(file);
  v1.exec(SCHEMA_VERSION_TABLE.sqlite);
  for (const sql of MIGRATIONS[0]!.sqlite) v1.exec(sql);
  v1.prepare('INSERT INTO schema_version VALUES (1, 0)').run();
  v1.prepare(`INSERT INTO history_series VALUES (1, 'power-price', 'bremen', 'price_eur_mwh', '€/MWh', 'smard', 'CC BY 4.0', 0)`).run();
  const day = Date.UTC(2026, 9, 1);
  for (const [h, v] of [
    [0, 10],
    [6, 30],
    [12, 20],
  ] as const)
    v1.prepare('INSERT INTO history_points VALUES (1, ?, ?, 1)').run(day + h * 3_600_000, v);
  v1.close();
  const app = await startApp({ ...fakeEnv(fake.url), HISTORY_PATH: file });
  try {
    const res = await app.get('/api/v1/cities/bremen/power-price/history?from=2026-10-01T00:00Z&to=2026-10-02T00:00Z&every=1d');
    assert.deepEqual(at(res.json, 'data'), [{ t: '2026-10-01T02:00:00+02:00', field: 'price_eur_mwh', min: 10, mean: 20, max: 30, n: 3, backfilled: true }]);
  } finally {
    await app.close();
  }
  const migrated = new DatabaseSync(file, { readOnly: true });
  assert.deepEqual(
    migrated
      .prepare('SELECT version FROM schema_version ORDER BY version')
      .all()
      .map((r) => r.version),
    MIGRATIONS.map((m) => m.version),
  );
  migrated.close();
  rmSync(dir, { recursive: true, force: true });
});

test('HISTORY_PG_*: the pool limits are read and bounded; a PostgreSQL that accepts connections and never answers (connect timeout 200 ms) gets a 503 naming the store', async () => {
  assert.deepEqual(loadAppConfig({ HISTORY_PG_POOL_MAX: '2', HISTORY_PG_CONNECT_TIMEOUT_MS: '500', HISTORY_PG_QUERY_TIMEOUT_MS: '2000' }).historyPg, {
    poolMax: 2,
    connectTimeoutMs: 500,
    queryTimeoutMs: 2000,
  });
  assert.throws(() => loadAppConfig({ HISTORY_PG_POOL_MAX: '0' }), /HISTORY_PG_POOL_MAX must be between 1 and/);
  // A server that takes each connection and sends nothing: neither refused nor answered.
  const held: Socket[] = [];
  const silent = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as AddressInfo;
  const app = await startApp({ ...fakeEnv(fake.url), DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/none`, HISTORY_PG_CONNECT_TIMEOUT_MS: '200' });
  try {
    const res = await app.get('/api/v1/cities/berlin/power-price/history');
    assert.equal(res.status, 503);
    assert.equal(str(res.json, 'code'), 'history_store_unavailable');
    assert.equal(str(res.json, 'store'), 'postgres');
    assert.ok(held.length > 0, 'the store connected to the silent server');
  } finally {
    await app.close();
    for (const socket of held) socket.destroy();
    silent.close();
  }
});

test('a history database that does not answer leaves the service up: 503 naming the store for history, health degraded with the reason, per-city error in compare', async () => {
  const app = await startApp({ ...fakeEnv(fake.url), DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
  try {
    const res = await app.get('/api/v1/cities/berlin/power-price/history');
    assert.equal(res.status, 503);
    assert.equal(str(res.json, 'code'), 'history_store_unavailable');
    assert.equal(str(res.json, 'store'), 'postgres');
    assert.match(str(res.json, 'detail'), /history store \(PostgreSQL/);
    assert.ok(!res.text.includes('127.0.0.1:1'));
    assert.equal((await app.get('/api/v1/cities/berlin/power-price')).status, 200);
    await app.history?.settled();
    const health = await app.get('/api/v1/health');
    assert.equal(at(health.json, 'data.history.reachable'), false);
    assert.equal(str(health.json, 'data.status'), 'degraded');
    assert.match(String(at(health.json, 'data.reasons.0')), /^history store \(postgres\) unreachable/);
    assert.ok(!health.text.includes('127.0.0.1'));
    const compare = await app.get('/api/v1/compare?resource=power-price&cities=berlin&at=2026-10-01T12:00Z');
    assert.equal(compare.status, 200);
    assert.equal(at(compare.json, 'data.0.source_status'), 'error');
  } finally {
    await app.close();
  }
});

describe('history requests it refuses', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp(fakeEnv(fake.url));
  });
  after(async () => app.close());

  test('from/to that are not ISO times are 422 without echoing them', async () => {
    const res = await app.get('/api/v1/cities/berlin/power-price/history?from=<script>yesterday');
    assert.equal(res.status, 422);
    assert.equal(str(res.json, 'code'), 'invalid_parameter');
    assert.equal(str(res.json, 'parameter'), 'from');
    assert.ok(!res.text.includes('script') && !res.text.includes('yesterday'));
  });

  test('an unknown every is 422 naming the allowed widths', async () => {
    const res = await app.get('/api/v1/cities/berlin/power-price/history?every=7x');
    assert.equal(res.status, 422);
    assert.match(str(res.json, 'hint'), /15m, 1h, 1d/);
    assert.ok(!res.text.includes('7x'));
  });

  test('a span longer than a month without every is 422', async () => {
    const res = await app.get('/api/v1/cities/berlin/power-price/history?from=2026-01-01&to=2026-06-01');
    assert.equal(res.status, 422);
    assert.equal(str(res.json, 'parameter'), 'every');
  });

  test('more than 10,000 buckets per field is 422 naming the spans each width allows', async () => {
    const res = await app.get('/api/v1/cities/berlin/power-price/history?from=2025-01-01&to=2026-01-01&every=15m');
    assert.equal(res.status, 422);
    assert.match(str(res.json, 'hint'), /every=15m spans up to 104 days/);
    assert.equal((await app.get('/api/v1/cities/berlin/power-price/history?from=2025-01-01&to=2026-01-01&every=1h')).status, 200);
  });

  test('an unknown or unrecorded type is 404 with a hint naming the recorded ones', async () => {
    const typo = await app.get('/api/v1/cities/berlin/power-prise/history');
    assert.equal(typo.status, 404);
    assert.equal(str(typo.json, 'suggestion'), 'power-price');
    const unrecorded = await app.get('/api/v1/cities/berlin/holidays/history');
    assert.equal(unrecorded.status, 404);
    assert.match(str(unrecorded.json, 'hint'), /water-level/);
  });

  test('compare at a time that is not ISO is 422', async () => {
    const res = await app.get('/api/v1/compare?resource=power-price&cities=berlin&at=noon');
    assert.equal(res.status, 422);
    assert.equal(str(res.json, 'parameter'), 'at');
  });
});
