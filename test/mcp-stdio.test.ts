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
import { fixtureSettings, registerAllFixtures } from './fixtures/index.ts';
import {
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
  registerAllFixtures(fake);
  const credentials = fixtureSettings();
  const env = { ...fakeEnv(fake.url), ...credentials };
  app = await startApp(env);
  dir = mkdtempSync(join(tmpdir(), 'stadtdaten-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    cwd: dir,
    env: { ...env, JOBS_ENABLED: 'false', LOG_LEVEL: 'silent', STORE_PATH: join(dir, 'store.sqlite') },
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
  registerAllFixtures(fake);
});

test('stdio: initialize', async () => {
  await checkInitialize(client);
});

test('stdio: at most 20 tools in at most 40 KB reaching every data type', async () => {
  await checkToolList(client, app.rt.catalog);
});

test('stdio: every data type through its tool; fetched types answer ok with data matching their schema resource', async () => {
  // Stored types read what the pollers write; this child runs without jobs, so they answer no_data.
  await checkEveryDataType(client, app.rt.catalog, (dt) => dt.cache !== 'stored');
});

test('stdio: environment/weather for "Freiburg" equals the REST envelope data', async () => {
  await checkWeatherEqualsRest(client, (p) => app.get(p));
  assert.ok(fake.count('/current_weather') >= 1, 'the child process reached the fake upstream');
});

test('stdio: unknown city and other bad input are tool errors with code and hint', async () => {
  await checkUnknownCity(client);
  await checkInputErrors(client);
});

test('stdio: find_city bound to the channel default, limit "all" gives 84', async () => {
  await checkFindCityBinding(client);
});

test('stdio: prompts, completions and resources', async () => {
  await checkPrompts(client);
  await checkCompletions(client, app.rt.catalog);
  await checkResources(client, app.rt.catalog);
});

test('stdio: stdout carried only protocol messages', () => {
  assert.deepEqual(transportErrors.map(String), []);
});
