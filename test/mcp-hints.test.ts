import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../src/mcp/mcp-server.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { str } from './helpers/json.ts';

/** On MCP a hint names the tool to call, never a REST route the model cannot follow. */
let fake: FakeUpstream;
let app: TestApp;
let client: Client;
let tools: string[];
before(async () => {
  fake = await new FakeUpstream().start();
  fake.mode = 'down';
  app = await startApp(fakeEnv(fake.url));
  const server = createMcpServer(app);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'hints', version: '1.0.0' });
  await client.connect(clientSide);
  tools = (await client.listTools()).tools.map((t) => t.name);
});
after(async () => {
  await client.close();
  await app.close();
  await fake.stop();
});

function assertToolHint(text: string, what: string) {
  assert.doesNotMatch(text, /\/api\/v1|GET \//, `${what}: ${text}`);
  assert.ok(
    tools.some((t) => new RegExp(`\\b${t}\\b`).test(text)),
    `${what} names a tool: ${text}`,
  );
}

test('tool errors: the hint names the tool that answers, for every problem that points to a route on REST', async () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['unknown city', 'city_overview', { city: 'Atlantis' }],
    ['near city', 'city_overview', { city: 'koelnn' }],
    ['empty compare', 'compare_cities', { cities: ' , ', resource: 'weather' }],
    ['bad EVA', 'departures', { data_type: 'station-board-departures', eva: 'abc' }],
    ['upstream down', 'environment', { city: 'kiel', data_type: 'weather' }],
  ];
  for (const [what, name, args] of cases) {
    const r = await client.callTool({ name, arguments: args });
    assert.equal(r.isError, true, what);
    assertToolHint(str(r.structuredContent, 'hint'), what);
    assertToolHint((r.content as { text: string }[])[0]!.text, `${what} (text)`);
  }
  const unknown = await client.callTool({ name: 'city_overview', arguments: { city: 'Atlantis' } });
  assert.match(str(unknown.structuredContent, 'hint'), /^Call find_city without query: it lists all 84 cities/);
});

test('resource and prompt errors name tools too', async () => {
  const resource = await client.readResource({ uri: 'stadtdaten://cities/atlantis' }).then(
    () => '',
    (err: Error) => err.message,
  );
  assertToolHint(resource, 'city resource');
  const prompt = await client.getPrompt({ name: 'city_briefing', arguments: { city: 'atlantis' } }).then(
    () => '',
    (err: Error) => err.message,
  );
  assertToolHint(prompt, 'city_briefing prompt');
});

test('compare on MCP: an unknown city item points to find_city', async () => {
  const r = await client.callTool({ name: 'compare_cities', arguments: { cities: ['atlantis'], resource: 'weather' } });
  assert.match(JSON.stringify(r.structuredContent), /unknown city; find_city lists the slugs/);
});

test('compare on MCP: with every source down the answer is error (a status the output schema allows), and the text names each city', async () => {
  const r = await client.callTool({ name: 'compare_cities', arguments: { cities: ['koeln', 'Munich'], resource: 'weather' } });
  assert.equal(str(r.structuredContent, 'meta.source_status'), 'error');
  const text = (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
  assert.match(text, /^1: city: koeln;/m);
  assert.match(text, /^2: city: muenchen;/m);
});
