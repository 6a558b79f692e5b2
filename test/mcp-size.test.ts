import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildCatalog, CATALOG, type Catalog } from '../src/catalog/index.ts';
import { GROUP_LABELS, toolNamesOf, type DataType, type Group } from '../src/core/data-type.ts';
import type { ParamDecl } from '../src/core/params.ts';
import { startApp, type TestApp } from './helpers/app.ts';
import { MAX_TOOL_LIST_BYTES, MAX_TOOLS, toolList } from './mcp-shared.ts';

/**
 * tools/list must stay within 40 KB at the spec's full scale (117 paths), not just today's
 * catalog. The catalog is padded with synthetic data types cloned from the real ones (their
 * summaries, records, coverage and own tools), spread over all eight groups, and, pessimistically,
 * every cloned parameter under a name of its own, so nothing merges with an existing property.
 */
const SPEC_PATHS = 117;
const GROUPS = Object.keys(GROUP_LABELS) as Group[];

function synthetic(base: DataType, i: number): DataType {
  const type = `${base.type}-s${i}`;
  const params: ParamDecl[] = (base.params ?? []).map((p) => ({ ...p, name: `${p.name}_s${i}` }));
  const inPath = params.filter((p) => p.in === 'path').map((p) => `/{${p.name}}`);
  const path = base.scope === 'global' ? `/api/v1/synthetic/${type}${inPath.join('')}` : `/api/v1/cities/{city}/${type}${inPath.join('')}`;
  const example = { ...base.example, params: Object.fromEntries(Object.entries(base.example.params ?? {}).map(([k, v]) => [`${k}_s${i}`, v])) };
  const { aliases: _aliases, compare: _compare, highlight: _highlight, fixedCity, ...rest } = base;
  return {
    ...rest,
    type,
    path,
    params,
    example,
    ...(fixedCity ? { coverage: { cities: [fixedCity], note: 'synthetic' } } : {}),
    // Own tools (departures, trip, route_status) keep theirs; the rest go round all groups, safety included.
    group: base.tool ? base.group : (GROUPS[i % GROUPS.length] as Group),
  };
}

function padded(to: number): Catalog {
  const extra: DataType[] = [];
  for (let i = 0; CATALOG.all.length + extra.length < to; i++) extra.push(synthetic(CATALOG.all[i % CATALOG.all.length]!, i));
  return buildCatalog([...CATALOG.all, ...extra]);
}

const catalog = padded(SPEC_PATHS);
const apps: TestApp[] = [];
const clients: Client[] = [];

async function connect(cat?: Catalog): Promise<Client> {
  const app = await startApp({}, cat ? { catalog: cat } : {});
  apps.push(app);
  const client = new Client({ name: 'stadtdaten-size', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
  clients.push(client);
  return client;
}

after(async () => {
  for (const c of clients) await c.close();
  for (const a of apps) await a.close();
});

test(`tools/list of a catalog padded to ${SPEC_PATHS} data types stays within ${MAX_TOOL_LIST_BYTES} bytes and ${MAX_TOOLS} tools`, async () => {
  assert.equal(catalog.all.length, SPEC_PATHS);
  const { tools, bytes } = await toolList(await connect(catalog));
  const real = await toolList(await connect());
  // The measured sizes, for the README and the report.
  console.log(
    `tools/list: ${real.tools.length} tools, ${real.bytes} bytes (${CATALOG.all.length} data types); ${tools.length} tools, ${bytes} bytes (${SPEC_PATHS})`,
  );
  assert.ok(bytes <= MAX_TOOL_LIST_BYTES, `tools/list is ${bytes} bytes at ${SPEC_PATHS} data types`);
  assert.ok(tools.length <= MAX_TOOLS, `${tools.length} tools`);
  assert.deepEqual(
    tools.map((t) => t.name),
    toolNamesOf(catalog.all),
  );
  assert.ok(
    tools.some((t) => t.name === 'safety'),
    'a group without data types today gets its tool once types arrive',
  );
  const reached = tools.flatMap((t) => (t.inputSchema.properties?.data_type as { enum?: string[] } | undefined)?.enum ?? []);
  assert.deepEqual(reached.sort(), catalog.all.map((dt) => dt.type).sort(), 'every padded data type is reachable');
  assert.ok(real.bytes < bytes);
});
