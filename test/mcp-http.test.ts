import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDemo, type Demo } from '../scripts/demo.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import type { TestResponse } from './helpers/app.ts';
import { allowedHosts, checkRequest } from '../src/mcp/guard.ts';
import { loadAppConfig } from '../src/startup.ts';
import {
  call,
  checkCompletions,
  checkEveryDataType,
  checkFindCityBinding,
  checkInitialize,
  checkInputErrors,
  checkPrompts,
  checkResources,
  checkToolList,
  checkUnknownCity,
  checkWeatherEqualsRest,
} from './mcp-shared.ts';
import { at, list, str } from './helpers/json.ts';
import { toolOf } from '../src/core/data-type.ts';

// The demo: every fixture on a fake upstream and the jobs run once, so every data type answers ok.
let demo: Demo;
let client: Client;

async function get(path: string): Promise<TestResponse> {
  const res = await fetch(demo.url + path);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null };
}

before(async () => {
  // The request-metrics test reads /metrics on the main ingress.
  process.env.METRICS_PUBLIC = 'true';
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
  client = new Client({ name: 'stadtdaten-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${demo.url}/mcp`)));
});
after(async () => {
  await client.close();
  await demo.close();
});
beforeEach(() => {
  demo.fake.reset();
  registerAllFixtures(demo.fake);
});

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function post(headers: Record<string, string>, body: unknown = INIT): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const u = new URL(`${demo.url}/mcp`);
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

test('tools: at most 20 in at most 40 KB, annotated, every data type in its tool with its parameters', async () => {
  await checkToolList(client, demo.built.rt.catalog);
});

test('every data type is reachable through its tool; results validate against outputSchema and the schema resource', async () => {
  await checkEveryDataType(client, demo.built.rt.catalog, () => true);
});

test('environment/weather with the tolerant slug "Freiburg": structured content equals the REST envelope', async () => {
  await checkWeatherEqualsRest(client, get);
});

test('unknown city is a tool error with code city_not_found and the did-you-mean hint', async () => {
  await checkUnknownCity(client);
});

test('bad input is a tool error with code and hint: data_type typo, other tool, missing, wrong type, stray argument', async () => {
  await checkInputErrors(client);
});

test('find_city lists bound to the channel default; limit "all" gives every city; REST stays unbound', async () => {
  await checkFindCityBinding(client);
  const rest = await get('/api/v1/cities');
  assert.equal(at(rest.json, 'data.length'), 84);
  assert.equal(at(rest.json, 'meta.pagination.channel'), 'rest');
});

test('limit "all" pages every list of a tool even where one of its types has a limit of its own (transport: stations)', async () => {
  const rest = await get('/api/v1/cities/muenchen/mobility-points?limit=all');
  const all = await call(client, 'transport', { city: 'muenchen', data_type: 'mobility-points', limit: 'all' });
  assert.notEqual(all.isError, true);
  assert.equal(list(all.structuredContent, 'data').length, list(rest.json, 'data').length);
  assert.ok(list(rest.json, 'data').length > 5);
  // stations' own limit caps its sorted list and takes only a number.
  const own = await call(client, 'transport', { city: 'koeln', data_type: 'stations', limit: 'all' });
  assert.equal(own.isError, true);
  assert.equal(str(own.structuredContent, 'code'), 'invalid_parameter');
});

test('prompts name only existing tools; compare_cities builds the compare call', async () => {
  await checkPrompts(client);
  const cmp = await client.getPrompt({ name: 'compare_cities', arguments: { cities: 'berlin, München', resource: 'weather' } });
  assert.match(
    (cmp.messages[0]!.content as { text: string }).text,
    /`compare_cities` with \{"cities":\["berlin","München"\],"resource":"weather","limit":"all"\}/,
  );
  await assert.rejects(client.getPrompt({ name: 'compare_cities', arguments: { cities: 'berlin', resource: 'zoo' } }), /unknown resource/);
});

test('completions: Munich and Köln complete to canonical slugs; data_type by prefix and by city', async () => {
  await checkCompletions(client, demo.built.rt.catalog);
});

test('resources: catalog with data schemas, cities, sources, templates for a city, a city data type and a schema', async () => {
  await checkResources(client, demo.built.rt.catalog);
  const src = await client.readResource({ uri: 'stadtdaten://sources' });
  const doc = JSON.parse((src.contents[0] as { text: string }).text);
  assert.equal(doc.data.length, demo.built.rt.config.sourceList.length);
});

test('departures picks the feed from the arguments: the city feed, a station board by EVA number', async () => {
  const hamburg = await call(client, 'departures', { city: 'hamburg' });
  assert.equal(at(hamburg.structuredContent, 'meta.type'), 'departures-hvv');
  const board = await call(client, 'departures', { eva: '8000098' });
  assert.equal(at(board.structuredContent, 'meta.type'), 'station-board-departures');
  const essen = await call(client, 'departures', { city: 'essen', eva: '8000098' });
  assert.equal(at(essen.structuredContent, 'meta.type'), 'station-departures');
  const none = await call(client, 'departures', {});
  assert.equal(at(none.structuredContent, 'code'), 'invalid_request');
  assert.match(str(none.structuredContent, 'hint'), /station-board-departures \(takes no city, eva/);
});

test('city_overview resolves tolerant names like the REST route and names the tool of each type', async () => {
  const ov = await call(client, 'city_overview', { city: 'München' });
  assert.equal(at(ov.structuredContent, 'data.city.slug'), 'muenchen');
  const restOv = await get('/api/v1/cities/muenchen/overview');
  assert.deepEqual(at(ov.structuredContent, 'data.data_types'), at(restOv.json, 'data.data_types'));
  const tools = new Set((await client.listTools()).tools.map((t) => t.name));
  for (const d of list<{ tool: string }>(ov.structuredContent, 'data.data_types')) assert.ok(tools.has(d.tool), d.tool);
});

test('compare_cities: per-city status (unknown city is not_found), MCP paging meta, bad resource is invalid_request', async () => {
  const r = await call(client, 'compare_cities', { cities: ['Freiburg', 'hamburg', 'Atlantis'], resource: 'weather' });
  assert.equal(r.isError, undefined);
  const byCity = Object.fromEntries(list<{ city: string; source_status: string }>(r.structuredContent, 'data').map((i) => [i.city, i.source_status]));
  // The weather recording is Freiburg's; Hamburg has none. An unknown city is named by its cleaned form only.
  assert.deepEqual(byCity, { 'freiburg-im-breisgau': 'ok', hamburg: 'no_data', atlantis: 'not_found' });
  assert.equal(at(r.structuredContent, 'meta.pagination.channel'), 'mcp');
  const bad = await call(client, 'compare_cities', { cities: 'berlin', resource: 'zoo' });
  assert.equal(bad.isError, true);
  assert.equal(at(bad.structuredContent, 'code'), 'invalid_request');
  assert.match(str(bad.structuredContent, 'hint'), /resource must be one of: .*weather/);
});

test('sources: every source, paged on the MCP channel; an unknown sort is invalid_request', async () => {
  const r = await call(client, 'sources', { limit: 'all' });
  assert.equal(at(r.structuredContent, 'data.length'), demo.built.rt.config.sourceList.length);
  const bad = await call(client, 'sources', { sort: 'colour' });
  assert.equal(at(bad.structuredContent, 'code'), 'invalid_request');
  assert.match(str(bad.structuredContent, 'hint'), /sort must be one of/);
});

test('a parameter outside its declared enum answers the REST problem code and hint', async () => {
  const dt = demo.built.rt.catalog.all.find((d) => d.scope !== 'global' && !d.fixedCity && d.params?.some((p) => p.enum && p.required));
  assert.ok(dt, 'the catalog has a data type with a required enum parameter (pois type)');
  const p = dt.params!.find((x) => x.enum && x.required)!;
  const r = await call(client, toolOf(dt), { city: 'berlin', data_type: dt.type, [p.name]: 'no-such-value' });
  assert.equal(r.isError, true);
  const rest = await get(`/api/v1/cities/berlin/${dt.type}?${p.name}=no-such-value`);
  assert.equal(at(r.structuredContent, 'code'), at(rest.json, 'code'));
  assert.equal(at(r.structuredContent, 'hint'), at(rest.json, 'hint'));
});

test('upstream down and nothing cached: a tool error with upstream_unavailable and a hint naming the sources tool', async () => {
  demo.fake.mode = 'down';
  const r = await call(client, 'environment', { city: 'kiel', data_type: 'weather' });
  assert.equal(r.isError, true);
  assert.equal(at(r.structuredContent, 'code'), 'upstream_unavailable');
  assert.equal(at(r.structuredContent, 'status'), 503);
  assert.match((r.content[0] as { text: string }).text, /Call sources: it shows the state of every source\./);
  assert.doesNotMatch((r.content[0] as { text: string }).text, /\/api\/v1/);
});

test('DNS-rebinding guard: a foreign Origin or Host gets 403 with a JSON-RPC error; same-host Origin passes', async () => {
  const foreignOrigin = await post({ origin: 'http://evil.example' });
  assert.equal(foreignOrigin.status, 403);
  assert.equal(at(foreignOrigin.json, 'jsonrpc'), '2.0');
  assert.match(str(foreignOrigin.json, 'error.message'), /Origin "http:\/\/evil\.example" is not allowed/);
  const foreignHost = await post({ host: 'evil.example:80' });
  assert.equal(foreignHost.status, 403);
  assert.match(str(foreignHost.json, 'error.message'), /Host/);
  const sameHost = await post({ origin: demo.url });
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

test('stateless mode: GET and DELETE /mcp answer 405 with Allow: POST as a problem document (POST alone speaks JSON-RPC)', async () => {
  for (const method of ['GET', 'DELETE']) {
    const r = await fetch(`${demo.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'POST');
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const body = (await r.json()) as Record<string, unknown>;
    assert.equal(body.code, 'method_not_allowed');
    assert.equal(body.status, 405);
    assert.match(String(body.hint), /POST \/mcp/);
    assert.equal(body.jsonrpc, undefined);
  }
});

test('MCP calls over HTTP are counted in the request metrics like REST calls', async () => {
  const m = await get('/metrics');
  assert.match(m.text, /http_requests_total\{method="POST",route="\/mcp",status="200"\} \d+/);
});

test('reused MCP servers: concurrent calls each get their own answer; a client gone mid-call leaves the next call whole', async () => {
  const callFor = (id: number, city: string) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'find_city', arguments: { query: city } },
  });
  const cities = ['Köln', 'Munich', 'Freiburg', 'Hamburg', 'Leipzig', 'Dresden', 'Kiel', 'Bonn'];
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(cities.map((c, i) => post({}, callFor(100 * round + i, c))));
    answers.forEach((a, i) => {
      assert.equal(a.status, 200);
      assert.equal(at(a.json, 'id'), 100 * round + i, 'the answer belongs to its own call');
      assert.ok(JSON.stringify(at(a.json, 'result')).length > 0);
    });
  }
  // A client that closes its connection before the answer: its server goes back to the pool only once closed.
  await new Promise<void>((resolve) => {
    const u = new URL(`${demo.url}/mcp`);
    const req = request({
      host: u.hostname,
      port: u.port,
      path: '/mcp',
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.end(JSON.stringify(callFor(999, 'Berlin')), () => req.destroy());
  });
  const after = await post({}, callFor(1000, 'Berlin'));
  assert.equal(after.status, 200);
  assert.equal(at(after.json, 'id'), 1000);
  assert.equal(at(after.json, 'result.isError') ?? false, false);
});
