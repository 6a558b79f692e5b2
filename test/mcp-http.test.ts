import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { registerBrightSky } from './fixtures/brightsky/routes.ts';
import { allowedHosts, checkRequest } from '../src/mcp/guard.ts';
import { loadAppConfig } from '../src/app-config.ts';
import {
  call,
  checkInitialize,
  checkListCitiesBinding,
  checkPrompt,
  checkResource,
  checkToolList,
  checkUnknownCity,
  checkWeatherEqualsRest,
} from './mcp-shared.ts';
import { nth } from './helpers/must.ts';
import { at, list, str } from './helpers/json.ts';

let fake: FakeUpstream;
let app: TestApp;
let client: Client;

before(async () => {
  fake = await new FakeUpstream().start();
  app = await startApp({ ...fakeEnv(fake.url), METRICS_PUBLIC: 'true' });
  client = new Client({ name: 'stadtdaten-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
});
after(async () => {
  await client.close();
  await app.close();
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
  registerBrightSky(fake);
});

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function post(headers: Record<string, string>, body: unknown = INIT): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const u = new URL(`${app.url}/mcp`);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

test('initialize over Streamable HTTP: server info, capabilities, instructions', async () => {
  await checkInitialize(client);
});

test('tools: one per catalog entry with its name, plus the fixed tools, all annotated read-only', async () => {
  await checkToolList(client, app.rt.catalog);
});

test('weather with the tolerant slug "München": structured content equals the REST envelope', async () => {
  await checkWeatherEqualsRest(client, (p) => app.get(p));
});

test('unknown city is a tool error with code city_not_found and the did-you-mean hint', async () => {
  await checkUnknownCity(client);
});

test('list_cities is bound to the channel default; limit "all" and all:true give every city; REST stays unbound', async () => {
  await checkListCitiesBinding(client);
  const rest = await app.get('/api/v1/cities');
  assert.equal(at(rest.json, 'data.length'), 84);
  assert.equal(at(rest.json, 'meta.pagination.channel'), 'rest');
});

test('prompts: city_briefing names the catalog tools for the resolved city; unknown city is an invalid-params error', async () => {
  await checkPrompt(client);
  await assert.rejects(client.getPrompt({ name: 'city_briefing', arguments: { city: 'Atlantis' } }), /Unknown city/);
  const cmp = await client.getPrompt({ name: 'compare_cities', arguments: { cities: 'berlin, München', resource: 'weather' } });
  assert.match(
    (nth(cmp.messages, 0).content as { text: string }).text,
    /compare with \{"cities": \["berlin","München"\], "resource": "weather", "limit": "all"\}/,
  );
  await assert.rejects(client.getPrompt({ name: 'compare_cities', arguments: { cities: 'berlin', resource: 'zoo' } }), /unknown resource/);
  const commute = await client.getPrompt({ name: 'commute_check', arguments: { city: 'hamburg' } });
  assert.match((nth(commute.messages, 0).content as { text: string }).text, /Hamburg \(slug hamburg\)/);
});

test('resources: catalog generated from the catalog, cities, sources', async () => {
  await checkResource(client, app.rt.catalog);
  const src = await client.readResource({ uri: 'stadtdaten://sources' });
  const doc = JSON.parse((src.contents[0] as { text: string }).text);
  assert.equal(doc.data.length, app.rt.config.sourceList.length);
  assert.ok(doc.data.some((s: { source: string }) => s.source === 'dwd-brightsky'));
});

test('get_city and get_city_overview resolve tolerant names like the REST routes', async () => {
  const entry = await call(client, 'get_city', { city: 'cologne' });
  const rest = await app.get('/api/v1/cities/cologne');
  assert.deepEqual(at(entry.structuredContent), at(rest.json));
  const missing = await call(client, 'get_city', { city: 'Hamburgg' });
  assert.equal(at(missing.structuredContent, 'code'), 'city_not_found');
  assert.match(str(missing.structuredContent, 'hint'), /"hamburg"/);

  const ov = await call(client, 'get_city_overview', { city: 'München' });
  assert.equal(at(ov.structuredContent, 'data.city.slug'), 'muenchen');
  assert.equal(at(ov.structuredContent, 'data.highlights.weather.source_status'), 'ok');
  const restOv = await app.get('/api/v1/cities/muenchen/overview');
  assert.deepEqual(at(ov.structuredContent, 'data.data_types'), at(restOv.json, 'data.data_types'));
  assert.deepEqual(at(ov.structuredContent, 'data.summary'), at(restOv.json, 'data.summary'));
});

test('compare: per-city status (unknown city is not_found), MCP paging meta, bad resource is invalid_request', async () => {
  const r = await call(client, 'compare', { cities: ['München', 'hamburg', 'Atlantis'], resource: 'weather' });
  assert.equal(r.isError, undefined);
  const byCity = Object.fromEntries(
    list<{ city: string; source_status: string }>(r.structuredContent, 'data').map((i: { city: string; source_status: string }) => [i.city, i.source_status]),
  );
  assert.deepEqual(byCity, { muenchen: 'ok', hamburg: 'ok', Atlantis: 'not_found' });
  assert.equal(at(r.structuredContent, 'meta.pagination.channel'), 'mcp');
  const rest = await app.get('/api/v1/compare?cities=M%C3%BCnchen,hamburg,Atlantis&resource=weather');
  assert.deepEqual(
    list<{ data: unknown }>(r.structuredContent, 'data').map((i: { data: unknown }) => i.data),
    list<{ data: unknown }>(rest.json, 'data').map((i: { data: unknown }) => i.data),
  );
  const bad = await call(client, 'compare', { cities: 'berlin', resource: 'zoo' });
  assert.equal(bad.isError, true);
  assert.equal(at(bad.structuredContent, 'code'), 'invalid_request');
  assert.match(str(bad.structuredContent, 'hint'), /resource must be one of: .*weather/);
});

test('sources: every source, paged on the MCP channel; an unknown sort is invalid_request', async () => {
  const r = await call(client, 'sources', { limit: 'all' });
  assert.equal(at(r.structuredContent, 'data.length'), app.rt.config.sourceList.length);
  const bad = await call(client, 'sources', { sort: 'colour' });
  assert.equal(at(bad.structuredContent, 'code'), 'invalid_request');
  assert.match(str(bad.structuredContent, 'hint'), /sort must be one of/);
});

test('a parameter outside its declared enum answers the REST problem code and hint', async () => {
  const dt = app.rt.catalog.all.find((d) => d.scope !== 'global' && !d.fixedCity && d.params?.some((p) => p.enum && p.required));
  assert.ok(dt, 'the catalog has a data type with a required enum parameter (pois type)');
  const p = dt.params!.find((x) => x.enum && x.required)!;
  const r = await call(client, dt.tool ?? dt.type.replace(/-/g, '_'), { city: 'berlin', [p.name]: 'no-such-value' });
  assert.equal(r.isError, true);
  const rest = await app.get(`/api/v1/cities/berlin/${dt.type}?${p.name}=no-such-value`);
  assert.equal(at(r.structuredContent, 'code'), at(rest.json, 'code'));
  assert.equal(at(r.structuredContent, 'hint'), at(rest.json, 'hint'));
});

test('upstream down and nothing cached: a tool error with upstream_unavailable and the health hint', async () => {
  fake.mode = 'down';
  const r = await call(client, 'weather', { city: 'kiel' });
  assert.equal(r.isError, true);
  assert.equal(at(r.structuredContent, 'code'), 'upstream_unavailable');
  assert.equal(at(r.structuredContent, 'status'), 503);
  assert.match((r.content[0] as { text: string }).text, /GET \/api\/v1\/health/);
});

test('DNS-rebinding guard: a foreign Origin or Host gets 403 with a JSON-RPC error; same-host Origin passes', async () => {
  const foreignOrigin = await post({ origin: 'http://evil.example' });
  assert.equal(foreignOrigin.status, 403);
  assert.equal(at(foreignOrigin.json, 'jsonrpc'), '2.0');
  assert.match(str(foreignOrigin.json, 'error.message'), /Origin "http:\/\/evil\.example" is not allowed/);
  const foreignHost = await post({ host: 'evil.example:80' });
  assert.equal(foreignHost.status, 403);
  assert.match(str(foreignHost.json, 'error.message'), /Host/);
  const sameHost = await post({ origin: app.url });
  assert.equal(sameHost.status, 200);
  assert.equal(at(sameHost.json, 'result.serverInfo.name'), 'stadtdaten');
});

test('guard rules: configured origins and the public base URL host are accepted', () => {
  const config = loadAppConfig({ MCP_ALLOWED_ORIGINS: 'https://app.example.org', PUBLIC_BASE_URL: 'https://api.example.org' });
  const hosts = allowedHosts(config);
  assert.equal(checkRequest(config, hosts, 'api.example.org', 'https://app.example.org').ok, true);
  assert.equal(checkRequest(config, hosts, 'api.example.org', undefined).ok, true);
  assert.equal(checkRequest(config, hosts, '[::1]:3000', undefined).ok, true);
  assert.equal(checkRequest(config, hosts, 'localhost:3000', 'http://localhost:3000').ok, true);
  assert.equal(checkRequest(config, hosts, 'localhost:3000', 'http://localhost:9999').ok, false);
  assert.equal(checkRequest(config, hosts, 'rebound.example:3000', undefined).ok, false);
  assert.equal(checkRequest(config, hosts, undefined, undefined).ok, false);
  assert.equal(checkRequest(config, hosts, 'localhost', 'null').ok, false);
});

test('stateless mode: GET and DELETE /mcp answer 405 with Allow: POST', async () => {
  for (const method of ['GET', 'DELETE']) {
    const r = await fetch(`${app.url}/mcp`, { method });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'POST');
    assert.equal(((await r.json()) as { error: { code: number } }).error.code, -32000);
  }
});

test('MCP calls over HTTP are counted in the request metrics like REST calls', async () => {
  const m = await app.get('/metrics');
  assert.match(m.text, /http_requests_total\{method="POST",route="\/mcp",status="200"\} \d+/);
});
