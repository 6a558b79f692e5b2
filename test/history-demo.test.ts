import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { demoLinks, startDemo, type Demo } from '../scripts/demo.ts';
import { examplePath } from '../src/core/data-type.ts';
import { recordableTypes } from '../src/services/history-answers.ts';
import { get } from './helpers/app.ts';
import { at } from './helpers/json.ts';
import { freshSchema, postgresReachable } from './helpers/postgres.ts';

type Rows = Record<string, unknown>[];

/** The demo on one history store: `env` names the store this suite created for it (startDemo's `stores`). */
function demoSuite(name: string, storeEnv: () => Promise<{ env: Record<string, string>; done(): Promise<void> }>) {
  describe(`demo history on ${name}`, () => {
    let demo: Demo;
    let done = async () => {};
    let env: Record<string, string> = {};
    before(async () => {
      ({ env, done } = await storeEnv());
      demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true, stores: env });
    });
    after(async () => {
      await demo.close();
      await done();
    });

    test("the history starts with each recordable type's example city; after two refresh cycles every one has points with their as_of; every=1d downsamples", async () => {
      const { built } = demo;
      const types = recordableTypes(built.rt.catalog);
      // Recorded at start, before any request.
      const weather = types.find((d) => d.type === 'weather')!;
      const seeded = await get(`${demo.url}/api/v1/cities/${weather.example.city!}/weather/history?from=2020-01-01&to=2030-01-01&every=1d`);
      assert.equal(at(seeded.json, 'meta.source_status'), 'ok', seeded.text.slice(0, 300));
      for (const dt of types) assert.equal((await get(demo.url + examplePath(dt))).status, 200, dt.type);
      // Two refresh cycles of the recorder's jobs, run here rather than waited for.
      const signal = new AbortController().signal;
      for (let cycle = 0; cycle < 2; cycle++) {
        for (const job of built.historyJobs) await job.run(built.rt, () => undefined, signal);
        await built.history!.settled();
      }
      // A series is a city's answer with the type's default parameters; an example with other parameters records nothing.
      for (const dt of types.filter((d) => !d.example.params)) {
        const city = dt.example.city!;
        const res = await get(`${demo.url}/api/v1/cities/${city}/${dt.type}/history?from=2020-01-01&to=2030-01-01&every=1d`);
        assert.equal(res.status, 200, dt.type);
        assert.equal(at(res.json, 'meta.demo'), true);
        assert.ok((at(res.json, 'data') as Rows).length >= 1, `${dt.type} in ${city} has a recorded value`);
      }
      // SMARD's price: the served value plus the published week backfilled, each point with its own as_of.
      const price = types.find((d) => d.type === 'power-price')!;
      const raw = await get(`${demo.url}/api/v1/cities/${price.example.city!}/power-price/history?from=2026-09-28&to=2026-10-06`);
      const points = at(raw.json, 'data') as Rows;
      assert.ok(points.length >= 2);
      assert.equal(new Set(points.map((p) => p.as_of)).size, points.length);
      const daily = await get(`${demo.url}/api/v1/cities/${price.example.city!}/power-price/history?from=2026-09-28&to=2026-10-06&every=1d`);
      assert.ok((at(daily.json, 'data') as Rows).every((r) => Number(r.n) >= 1 && r.t !== undefined));
      assert.ok((at(daily.json, 'data') as Rows).length < points.length);
    });

    test('the demo prints an explorer URL and a history URL whose first call shows recorded points, at the live path plus /history too', async () => {
      const links = demoLinks(demo).map(([path]) => path);
      assert.match(links[0] ?? '', /^\/explore\/[a-z-]+$/);
      const history = links.find((p) => p.endsWith('/history'));
      assert.ok(history, 'a history URL');
      const r = await get(demo.url + history);
      assert.equal(at(r.json, 'meta.source_status'), 'ok', history);
      assert.ok((at(r.json, 'data') as unknown[]).length > 0, history);
      // water-level's path is /api/v1/live/{city}/water-level: its history is there as well, the same answer.
      const live = await get(`${demo.url}/api/v1/live/Cologne/water-level/history`);
      const canonical = await get(`${demo.url}/api/v1/cities/koeln/water-level/history`);
      assert.equal(live.status, 200);
      assert.deepEqual(at(live.json, 'data'), at(canonical.json, 'data'));
      assert.equal(live.headers.get('etag'), canonical.headers.get('etag'));
    });

    test('history as CSV: the JSON rows, one for one, read by a strict parser; the meta in headers; 304 on its ETag', async () => {
      const price = recordableTypes(demo.built.rt.catalog).find((d) => d.type === 'power-price')!;
      for (const every of ['', '&every=1d']) {
        const path = `/api/v1/cities/${price.example.city!}/power-price/history?from=2026-09-28&to=2026-10-06${every}`;
        const json = await get(demo.url + path);
        const csv = await get(`${demo.url}${path}&format=csv`);
        assert.equal(csv.status, 200);
        assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
        const rows = parse(csv.text, {
          columns: true,
          record_delimiter: '\r\n',
          relax_column_count: false,
          relax_quotes: false,
          skip_empty_lines: false,
        }) as Record<string, string>[];
        const data = at(json.json, 'data') as Rows;
        assert.equal(rows.length, data.length);
        assert.deepEqual(Object.keys(rows[0] ?? {}), Object.keys(data[0] ?? {}));
        assert.equal(rows[0]?.field, data[0]?.field);
        assert.equal(csv.headers.get('x-source-status'), 'ok');
        assert.match(csv.headers.get('link') ?? '', /rel="license"/);
        assert.notEqual(csv.headers.get('etag'), json.headers.get('etag'));
        assert.equal((await fetch(`${demo.url}${path}&format=csv`, { headers: { 'if-none-match': csv.headers.get('etag')! } })).status, 304);
        assert.equal((await fetch(demo.url + path, { headers: { 'if-none-match': json.headers.get('etag')! } })).status, 304);
      }
      const geo = await get(`${demo.url}/api/v1/cities/${price.example.city!}/power-price/history?format=geojson`);
      assert.equal(geo.status, 406);
    });
  });
}

demoSuite('SQLite (in memory)', async () => ({ env: {}, done: async () => {} }));

if (await postgresReachable()) {
  demoSuite('PostgreSQL', async () => {
    const schema = await freshSchema();
    return { env: { DATABASE_URL: schema.url }, done: schema.drop };
  });
}
