import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { registerBrightSky } from './fixtures/brightsky/routes.ts';
import { checkInitialize, checkListCitiesBinding, checkPrompt, checkResource, checkToolList, checkUnknownCity, checkWeatherEqualsRest } from './mcp-shared.ts';

// The published entry (`npx stadtdaten-mcp`) as a child process, started from a foreign working
// directory the way desktop clients do; REST answers come from an in-process app on the same fake.
const BIN = fileURLToPath(new URL('../bin/stadtdaten-mcp.js', import.meta.url));

let fake: FakeUpstream;
let app: TestApp;
let client: Client;
let dir: string;
const transportErrors: Error[] = [];

before(async () => {
  fake = await new FakeUpstream().start();
  registerBrightSky(fake);
  app = await startApp(fakeEnv(fake.url));
  dir = mkdtempSync(join(tmpdir(), 'stadtdaten-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    cwd: dir,
    env: { ...fakeEnv(fake.url), JOBS_ENABLED: 'false', LOG_LEVEL: 'silent', STORE_PATH: join(dir, 'store.sqlite') },
    stderr: 'pipe',
  });
  // Any non-protocol line on stdout would surface here as a parse error.
  transport.onerror = (err) => transportErrors.push(err);
  client = new Client({ name: 'stadtdaten-test', version: '1.0.0' });
  await client.connect(transport);
});
after(async () => {
  await client.close();
  await app.close();
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reset();
  registerBrightSky(fake);
});

test('stdio: initialize', async () => {
  await checkInitialize(client);
});

test('stdio: one tool per catalog entry plus the fixed tools', async () => {
  await checkToolList(client, app.rt.catalog);
});

test('stdio: weather for "München" equals the REST envelope data', async () => {
  await checkWeatherEqualsRest(client, (p) => app.get(p));
  assert.ok(fake.count('/current_weather') >= 1, 'the child process reached the fake upstream');
});

test('stdio: unknown city is a tool error with city_not_found and the did-you-mean hint', async () => {
  await checkUnknownCity(client);
});

test('stdio: list_cities bound to the channel default, limit "all" gives 84', async () => {
  await checkListCitiesBinding(client);
});

test('stdio: prompt and resource', async () => {
  await checkPrompt(client);
  await checkResource(client, app.rt.catalog);
});

test('stdio: stdout carried only protocol messages', () => {
  assert.deepEqual(transportErrors.map(String), []);
});
