import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { startApp } from './helpers/app.ts';
import { GROUP_LABELS } from '../src/core/data-type.ts';
import { at, list, str } from './helpers/json.ts';

const ctx = useFakeApp(registerBrightSky);

type Spec = {
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { responses: Record<string, unknown> };
};

test('OpenAPI servers come from the configuration, never from the Host or forwarded headers of a request', async () => {
  const plain = await ctx.app.get('/api/v1/openapi.json');
  const spec = plain.json as Spec;
  // Relative: a browser resolves it against the page, so Try it out calls this instance.
  assert.deepEqual(
    spec.servers.map((x) => x.url),
    ['/'],
  );
  assert.equal(plain.headers.get('vary')?.includes('Host') ?? false, false);
  const forwarded = { host: 'evil.example', 'x-forwarded-host': 'stadtdaten.example:8443', 'x-forwarded-proto': 'https' };
  assert.equal((await ctx.app.get('/api/v1/openapi.json', forwarded)).text, plain.text);
  const yaml = (await ctx.app.get('/api/v1/openapi.yaml', { host: 'other.example' })).text;
  assert.doesNotMatch(yaml, /other\.example/);
  const behindProxy = await startApp({ TRUST_PROXY: 'true' });
  try {
    const viaProxy = (await behindProxy.get('/api/v1/openapi.json', forwarded)).json as Spec;
    assert.deepEqual(
      viaProxy.servers.map((x) => x.url),
      ['/'],
    );
  } finally {
    await behindProxy.close();
  }
  const withPublic = await startApp({ PUBLIC_BASE_URL: 'https://api.example.org', LOCAL_BASE_URL: 'http://10.0.0.5:3001' });
  try {
    const s = (await withPublic.get('/api/v1/openapi.json', { host: 'evil.example' })).json as Spec;
    assert.deepEqual(
      s.servers.map((x) => x.url),
      ['https://api.example.org', 'http://10.0.0.5:3001'],
    );
  } finally {
    await withPublic.close();
  }
});

test('OpenAPI tags: data topics first, operational last; every used tag listed once', async () => {
  const spec = (await ctx.app.get('/api/v1/openapi.json')).json as Spec;
  const names = spec.tags.map((t) => t.name);
  assert.equal(names.at(-1), 'Operational');
  assert.equal(
    names[0],
    Object.values(GROUP_LABELS).find((l) => names.includes(l)),
  );
  const firstOther = names.findIndex((n) => !Object.values(GROUP_LABELS).includes(n));
  assert.ok(
    names.slice(firstOther).every((n) => !Object.values(GROUP_LABELS).includes(n)),
    names.join(', '),
  );
  assert.equal(new Set(names).size, names.length);
});

test('OpenAPI error examples carry the code of their status; city parameters have an example', async () => {
  const spec = (await ctx.app.get('/api/v1/openapi.json')).json as Spec;
  const expected: Record<string, string[]> = {
    '400': ['invalid_request'],
    '404': ['city_not_found', 'route_not_found'],
    '406': ['not_acceptable'],
    '422': ['invalid_parameter'],
    '503': ['upstream_unavailable', 'not_ready', 'history_store_unavailable'],
  };
  let checked = 0;
  for (const [path, ops] of Object.entries(spec.paths))
    for (const op of Object.values(ops))
      for (const [status, ref] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        // Problem responses are shared components, one per code.
        const name = str(ref, '$ref').replace('#/components/responses/', '');
        const res = spec.components.responses[name];
        const ex = at(res, 'content.application/problem+json.example');
        const code = str(ex, 'code');
        assert.ok(expected[status]?.includes(code), `${path} ${status}: ${code}`);
        assert.equal(at(ex, 'status'), Number(status), `${path} ${status}`);
        if (status === '404' && path.includes('{city}')) assert.equal(code, 'city_not_found', path);
        checked++;
      }
  assert.ok(checked > 50);
  const weather = (await ctx.app.get('/api/v1/openapi.json')).json as {
    paths: Record<string, { get: { parameters: unknown[] } }>;
    components: { parameters: Record<string, { name: string; example?: string }> };
  };
  // The city parameter is a shared component per example city.
  const city = list<{ name?: string; $ref?: string; example?: string }>(weather.paths['/api/v1/cities/{city}/weather']?.get, 'parameters')
    .map((p) => (p.$ref ? weather.components.parameters[p.$ref.replace('#/components/parameters/', '')] : p))
    .find((p) => p?.name === 'city');
  assert.equal(city?.example, 'freiburg-im-breisgau', 'city has the example city of its data type');
});
