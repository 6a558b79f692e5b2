import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_HTTP_TRANSPORT_TYPE } from '../src/services/mcp-clients.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { startApp, type TestApp } from './helpers/app.ts';
import { list } from './helpers/json.ts';

/**
 * The README and docs/contract.md say what a running server says: its MCP lists (asked over
 * HTTP with the SDK client), its disabled sources on a fresh start, its compare resources.
 * Read from the documents as a reader sees them, not from the generator.
 */
const root = new URL('../', import.meta.url);
const README = readFileSync(new URL('README.md', root), 'utf8');
const CONTRACT = readFileSync(new URL('docs/contract.md', root), 'utf8');

function section(text: string, name: string): string {
  const a = text.indexOf(`<!-- ${name}:start -->`),
    b = text.indexOf(`<!-- ${name}:end -->`);
  assert.ok(a >= 0 && b > a, `${name} markers`);
  return text.slice(a, b);
}

/** The rows of the markdown table whose header row starts with `| first |`, as trimmed cells. */
function table(text: string, first: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  assert.ok(start >= 0, `a table starting with ${first}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

let app: TestApp;
let client: Client;
before(async () => {
  // A fresh start: no credentials, every source at its default toggle.
  app = await startApp();
  client = new Client({ name: 'readme-check', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
});
after(async () => {
  await client.close();
  await app.close();
});

test("README's MCP section equals the server's lists: tools (with their data types), prompts, resources, templates", async () => {
  const mcp = section(README, 'mcp');
  const tools = (await client.listTools()).tools;
  const toolRows = table(mcp, 'Tool');
  assert.deepEqual(
    toolRows.map((r) => ticked(r[0]!)[0]),
    tools.map((t) => t.name),
  );
  for (const [i, t] of tools.entries()) {
    const types = (t.inputSchema.properties?.data_type as { enum?: string[] } | undefined)?.enum ?? [];
    const shown = ticked(toolRows[i]![2]!).filter((x) => x !== 'data_type');
    assert.deepEqual(shown.filter((x) => types.includes(x)).sort(), [...types].sort(), `${t.name}: its data types`);
    assert.equal(toolRows[i]![1], t.title, `${t.name}: title`);
  }

  const prompts = (await client.listPrompts()).prompts;
  const promptRows = table(mcp, 'Prompt');
  assert.deepEqual(
    promptRows.map((r) => ticked(r[0]!)[0]),
    prompts.map((p) => p.name),
  );
  for (const [i, p] of prompts.entries())
    assert.deepEqual(
      ticked(promptRows[i]![1]!),
      (p.arguments ?? []).map((a) => a.name),
      `${p.name}: arguments`,
    );

  const templates = (await client.listResourceTemplates()).resourceTemplates;
  assert.deepEqual(
    table(mcp, 'Resource template').map((r) => ticked(r[0]!)[0]),
    templates.map((t) => t.uriTemplate),
  );
  const resources = (await client.listResources()).resources;
  const fixed = resources.filter((r) => !r.uri.startsWith('stadtdaten://schemas/')).map((r) => r.uri);
  const line = mcp.split('\n').find((l) => l.startsWith('Resources: '))!;
  assert.deepEqual(ticked(line.split(';')[0]!), fixed);
  assert.match(line, new RegExp(`\\(${resources.length} in all\\)`));
  assert.match(mcp, new RegExp(`^${tools.length} tools, ${prompts.length} prompts, ${fixed.length} resources and ${templates.length} resource templates`, 'm'));
});

test('the client settings: the stdio entry exists, the HTTP one uses the Streamable HTTP type name, as on the landing page', async () => {
  const blocks = [...section(README, 'mcp').matchAll(/```json\n([\s\S]*?)\n```/g)].map(
    (m) => JSON.parse(m[1]!) as { mcpServers: Record<string, Record<string, unknown>> },
  );
  assert.equal(blocks.length, 2);
  const [stdio, http] = blocks.map((b) => b.mcpServers.stadtdaten!);
  const entry = (stdio!.args as string[])[0]!;
  assert.ok(existsSync(new URL(entry.replace('/path/to/stadtdaten/', ''), root)), entry);
  assert.equal(MCP_HTTP_TRANSPORT_TYPE, 'http');
  assert.equal(http!.type, MCP_HTTP_TRANSPORT_TYPE);
  assert.match(String(http!.url), /\/mcp$/);
  const landing = (await app.get('/')).text.replace(/&quot;/g, '"');
  assert.ok(landing.includes(`"type": "${MCP_HTTP_TRANSPORT_TYPE}",\n      "url": "${app.url}/mcp"`), 'the landing page shows the same HTTP entry');
});

test('credentials table: one row per source disabled on a fresh start, each with where to register and whether it is free', async () => {
  const creds = section(README, 'credentials');
  const rows = table(creds, 'Source');
  const ids = rows.map((r) => ticked(r[0]!).at(-1)!);
  const health = await app.get('/api/v1/health');
  const disabled = list<string>(health.json, 'data.sources.disabled');
  assert.deepEqual([...ids].sort(), [...disabled].sort(), "the table explains health's disabled sources");
  const count = /^(\d+) sources answer `disabled` on a fresh start/m.exec(creds);
  assert.equal(Number(count?.[1]), rows.length, 'the sentence counts the rows');
  for (const r of rows) {
    assert.match(r[4]!, /^(https:\/\/\S+: \S|none published \(no key exists\): \S)/, `${r[0]}: where to register`);
    assert.match(r[5]!, /^(yes|no|by agreement|no key)$/, `${r[0]}: free`);
  }
  const sources = await app.get('/api/v1/sources?limit=all');
  for (const s of list<{ source: string; credential_variables: string[]; registration: { url: string; free: unknown } | null }>(sources.json, 'data')) {
    if (s.credential_variables.length) assert.ok(s.registration?.url.startsWith('https://') && s.registration.free !== undefined, `${s.source}: registration`);
  }
  for (const src of CATALOG.sources) if (src.credentials?.length) assert.ok(src.registration, `${src.id} declares where to register`);
});

test("docs/contract.md lists the server's compare resources", async () => {
  const block = section(CONTRACT, 'compare-resources');
  const listed = [...block.matchAll(/(?:: |, )`([a-z0-9-]+)`/g)].map((m) => m[1]!);
  const index = await app.get('/api/v1');
  assert.deepEqual(listed, list<string>(index.json, 'data.compare_resources'));
  assert.match(block, new RegExp(`^${listed.length} resources`, 'm'));
});
