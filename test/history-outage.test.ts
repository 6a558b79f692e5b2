import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/core/config.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { useFakeUpstream } from './helpers/setup.ts';
import { register as registerSmard } from './fixtures/smard/routes.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { get } from './helpers/app.ts';
import { at, str } from './helpers/json.ts';
import { freshSchema, postgresReachable } from './helpers/postgres.ts';
import { tcpProxy, type TcpProxy } from './helpers/tcp-proxy.ts';

const fake = useFakeUpstream(registerSmard);
const CITIES = ['hamburg', 'muenchen', 'koeln', 'dresden', 'leipzig'];
const OUTAGE_MS = 10_000;
/** The hour around a served price's time: where its recorded point must be. */
const around = (asOf: string) =>
  `from=${encodeURIComponent(new Date(Date.parse(asOf) - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.parse(asOf) + 3_600_000).toISOString())}`;

const pg = await postgresReachable();

test(
  'a PostgreSQL outage of 10 s while values are fetched loses no point; its logs name the store, never its address',
  { skip: !pg && 'PostgreSQL not reachable' },
  async () => {
    const schema = await freshSchema();
    const direct = new URL(schema.url);
    // Our own way to take "the" database away: a proxy in front of it that we stop and start.
    const proxy: TcpProxy = await tcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(schema.url);
    viaProxy.port = String(proxy.port);
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const config = loadConfig(
      { ...fakeEnv(fake.url), LOG_LEVEL: 'info', JOBS_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false', METRICS_PUBLIC: 'true', DATABASE_URL: viaProxy.href },
      CATALOG.sources,
    );
    const built: App = await buildApp(config, { store: new SqliteStore(':memory:'), logStream });
    await built.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    const recorder = built.history!;
    try {
      assert.equal((await get(`${url}/api/v1/cities/berlin/power-price`)).status, 200);
      await recorder.settled();
      await proxy.stop();
      const stopped = Date.now();
      const served = new Map<string, string>();
      for (const city of CITIES) {
        const res = await get(`${url}/api/v1/cities/${city}/power-price`);
        assert.equal(res.status, 200, city);
        served.set(city, str(res.json, 'data.bidding_zone.latest.start'));
      }
      await recorder.settled();
      assert.equal(recorder.buffered, CITIES.length, "each city's price waits for the store");
      // Meanwhile: history names the store, health says why it is degraded.
      const during = await get(`${url}/api/v1/cities/hamburg/power-price/history?${around(served.get('hamburg')!)}`);
      assert.equal(during.status, 503);
      assert.equal(str(during.json, 'code'), 'history_store_unavailable');
      const health = await get(`${url}/api/v1/health`);
      assert.equal(str(health.json, 'data.status'), 'degraded');
      assert.equal(at(health.json, 'data.history.buffered_points'), CITIES.length);
      await new Promise((r) => setTimeout(r, Math.max(0, stopped + OUTAGE_MS - Date.now())));
      await proxy.start();
      for (let i = 0; i < 60 && recorder.buffered > 0; i++) {
        await recorder.flush();
        if (recorder.buffered > 0) await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal(recorder.buffered, 0);
      for (const city of CITIES) {
        const asOf = served.get(city)!;
        const res = await get(`${url}/api/v1/cities/${city}/power-price/history?${around(asOf)}`);
        assert.equal(res.status, 200, city);
        const live = (at(res.json, 'data') as { as_of: string; backfilled: boolean }[]).filter((r) => !r.backfilled);
        assert.deepEqual(
          live.map((r) => Date.parse(r.as_of)),
          [Date.parse(asOf)],
          city,
        );
      }
      assert.equal(str((await get(`${url}/api/v1/health`)).json, 'data.status'), 'ok');
      const metrics = await (await fetch(`${url}/metrics`)).text();
      assert.match(metrics, /^stadtdaten_history_points_dropped_total 0$/m);
    } finally {
      await built.close();
      await proxy.stop();
      await schema.drop();
    }
    const outage = lines.filter((l) => /history store .* unreachable/.test(l));
    assert.equal(outage.length, 1, 'one line per outage, not one per request or point');
    assert.ok(lines.some((l) => /history store .* answers again/.test(l)));
    // Every warning, and every line about a store (Fastify's own "listening at" line names the service's address, not the database's).
    for (const l of lines.filter((x) => (JSON.parse(x) as { level: number }).level >= 40 || /store|database|postgres/i.test(x))) {
      assert.ok(!l.includes('127.0.0.1') && !l.includes('postgres://') && !l.includes(`:${proxy.port}`) && !l.includes(':5432'), l);
    }
  },
);

test('beyond HISTORY_BUFFER_POINTS the oldest kept points are dropped and counted in /metrics and health', async () => {
  const app = await startApp({
    ...fakeEnv(fake.url),
    METRICS_PUBLIC: 'true',
    HISTORY_BUFFER_POINTS: '2',
    DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
  });
  try {
    for (const city of CITIES) assert.equal((await app.get(`/api/v1/cities/${city}/power-price`)).status, 200, city);
    await app.history!.settled();
    const health = await app.get('/api/v1/health');
    assert.equal(at(health.json, 'data.history.buffered_points'), 2);
    assert.equal(at(health.json, 'data.history.dropped_points'), CITIES.length - 2);
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    assert.match(metrics, new RegExp(`^stadtdaten_history_points_dropped_total ${CITIES.length - 2}$`, 'm'));
    assert.match(metrics, /^stadtdaten_history_points_buffered 2$/m);
  } finally {
    await app.close();
  }
});
