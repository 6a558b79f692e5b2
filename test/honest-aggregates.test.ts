import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerAllFixtures } from './fixtures/index.ts';
import { startApp, fakeEnv } from './helpers/app.ts';
import { useFakeUpstream } from './helpers/setup.ts';
import { at, list, num, obj } from './helpers/json.ts';

const fake = useFakeUpstream(registerAllFixtures);
const fresh = () => startApp(fakeEnv(fake.url));

test('compare: meta.source_status is ok only when some city answered ok; all failing is error, all empty is no_data', async () => {
  const app = await fresh();
  try {
    fake.mode = 'error';
    const failing = await app.get('/api/v1/compare?resource=weather&cities=berlin,hamburg,muenchen');
    assert.equal(failing.status, 200);
    assert.ok(list(failing.json, 'data').every((i) => at(i, 'source_status') === 'error'));
    assert.equal(at(failing.json, 'meta.source_status'), 'error');
    assert.deepEqual(at(failing.json, 'meta.statuses'), { error: 3 });
    fake.mode = 'normal';
    // Bright Sky's recording is Freiburg's: other cities have no station within reach (no_data).
    const empty = await app.get('/api/v1/compare?resource=weather&cities=kiel,luebeck');
    assert.equal(at(empty.json, 'meta.source_status'), 'no_data');
    const one = await app.get('/api/v1/compare?resource=weather&cities=kiel,freiburg-im-breisgau');
    assert.equal(at(one.json, 'meta.source_status'), 'ok');
    assert.deepEqual(at(one.json, 'meta.statuses'), { no_data: 1, ok: 1 });
  } finally {
    await app.close();
  }
});

test('overview, coverage, health and the landing page tell configured from answering, and count the failing', async () => {
  const app = await fresh();
  try {
    // At start nothing was asked: configured, not yet answering.
    const before = obj(await app.get('/api/v1/cities/freiburg-im-breisgau/overview').then((r) => r.json), 'data.summary');
    assert.ok(num(before, 'data_types_configured') > 0);
    assert.equal(num(before, 'data_types_configured'), num(before, 'data_types_available'));
    // Every upstream is down: the highlights of a city not cached yet fail, and so do the sources they asked.
    fake.mode = 'down';
    const down = await app.get('/api/v1/cities/kiel/overview');
    const summary = obj(down.json, 'data.summary');
    assert.ok(num(summary, 'data_types_failing') >= 1, 'the weather source failed its call');
    assert.ok(num(summary, 'data_types_answering') < num(summary, 'data_types_configured'), 'configured is not answering');
    assert.match(String(summary.headline), /\d+ of \d+ per-city data types configured; \d+ answering now, [1-9]\d* failing, \d+ not asked since start/);
    const weather = list(down.json, 'data.data_types').find((d) => at(d, 'type') === 'weather');
    assert.equal(at(weather, 'state'), 'failing');
    assert.equal(at(weather, 'available'), true, 'still configured');

    const coverage = await app.get('/api/v1/coverage');
    const cells = obj(coverage.json, 'meta.cells');
    assert.equal(num(cells, 'configured'), num(cells, 'answering') + num(cells, 'untried') + num(cells, 'failing'));
    assert.ok(num(cells, 'failing') > 0);

    const health = await app.get('/api/v1/health');
    assert.equal(health.status, 200, 'the app and its store are fine');
    assert.ok(list(health.json, 'data.sources.failing').includes('dwd-brightsky'));

    const landing = await app.get('/');
    assert.match(landing.text, /<strong id="failing">\d+ failing<\/strong>/);
    assert.doesNotMatch(landing.text, /<strong id="failing">0 failing/);

    // Back up: the next call answers, and the source counts as answering again.
    fake.mode = 'normal';
    const again = await startApp(fakeEnv(fake.url));
    try {
      assert.equal(at((await again.get('/api/v1/cities/freiburg-im-breisgau/weather')).json, 'meta.source_status'), 'ok');
      const ok = obj((await again.get('/api/v1/cities/freiburg-im-breisgau/overview')).json, 'data.summary');
      assert.ok(num(ok, 'data_types_answering') >= 1);
    } finally {
      await again.close();
    }
  } finally {
    await app.close();
  }
});
