import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { startApp, fakeEnv } from './helpers/app.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { at } from './helpers/json.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { examplePath } from '../src/core/data-type.ts';

/**
 * A list pages by channel (GPT and MCP clients get bounded pages; docs/contract.md, "Pagination"),
 * and the channel comes from X-Stadtdaten-Channel or the User-Agent: every list answer says so in
 * Vary, so that a shared cache never hands one channel's page to another. Non-list answers do not
 * differ by channel. Every data type answer varies on Accept (JSON, CSV or GeoJSON, docs/contract.md, "Formats"), and one
 * large enough to be compressed (COMPRESS_THRESHOLD_BYTES) on Accept-Encoding.
 */
const ctx = useFakeApp(registerAllFixtures);
const heritage = examplePath(CATALOG.byType.get('heritage')!);
const weather = examplePath(CATALOG.byType.get('weather')!);

test('a list data type varies on the channel headers and Accept: full path, Fastify HIT and lane HIT alike; a non-list type on Accept only', async () => {
  const seen: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await ctx.app.get(heritage);
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    seen.push(String(at(r.json, 'meta.cache_status')));
    assert.equal(r.headers.get('vary'), 'X-Stadtdaten-Channel, User-Agent, Accept, accept-encoding', `answer ${i + 1}`);
  }
  assert.deepEqual(seen, ['MISS', 'HIT', 'HIT']);
  const gpt = await ctx.app.get(heritage, { 'user-agent': 'ChatGPT-User/1.0' });
  assert.equal(gpt.headers.get('vary'), 'X-Stadtdaten-Channel, User-Agent, Accept, accept-encoding');
  assert.equal(at(gpt.json, 'meta.pagination.channel'), 'gpt-actions');
  assert.equal((await ctx.app.get(weather)).headers.get('vary'), 'Accept, accept-encoding');
});

test('with a list of allowed origins, Vary keeps Origin next to the channel headers (data lists and the city list, which offers CSV and GeoJSON)', async () => {
  const app = await startApp({ ...fakeEnv(ctx.fake.url), CORS_ORIGIN: 'https://a.example' });
  try {
    for (let i = 0; i < 3; i++) {
      const r = await app.get(heritage, { origin: 'https://a.example' });
      assert.equal(r.headers.get('access-control-allow-origin'), 'https://a.example');
      assert.equal(r.headers.get('vary'), 'Origin, X-Stadtdaten-Channel, User-Agent, Accept, accept-encoding', `answer ${i + 1}`);
    }
    const cities = await app.get('/api/v1/cities', { origin: 'https://b.example' });
    assert.equal(cities.headers.get('vary'), 'Origin, Accept, accept-encoding, X-Stadtdaten-Channel, User-Agent');
    assert.equal(cities.headers.get('access-control-allow-origin'), null);
  } finally {
    await app.close();
  }
});
