import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Catalog } from '../src/catalog/index.ts';
import { CITIES } from '../src/cities/register.ts';
import { DEFAULT_CHANNEL_LIMIT } from '../src/http/pagination.ts';
import { FIXED_TOOLS } from '../src/mcp/tools.ts';
import type { TestResponse } from './helpers/app.ts';
import { nth } from './helpers/must.ts';
import { at, str } from './helpers/json.ts';

/**
 * Checks both MCP transports must pass with the official SDK client; `rest` answers the same
 * question over REST so results can be compared with the REST envelope.
 */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent: unknown }> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: unknown };
}

export async function checkInitialize(client: Client) {
  assert.equal(client.getServerVersion()?.name, 'stadtdaten');
  const caps = client.getServerCapabilities();
  assert.ok(caps?.tools && caps.prompts && caps.resources);
  assert.match(client.getInstructions() ?? '', /get_city_overview/);
}

export async function checkToolList(client: Client, catalog: Catalog) {
  const { tools } = await client.listTools();
  assert.equal(tools.length, catalog.all.length + FIXED_TOOLS.length);
  for (const dt of catalog.all) {
    const matching = tools.filter((t) => t.name === dt.tool);
    assert.equal(matching.length, 1, `exactly one tool for ${dt.type}`);
    const t = nth(matching, 0);
    assert.deepEqual(t.annotations, { title: dt.label_en, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    const props = t.inputSchema.properties as Record<string, { enum?: string[]; type?: string }>;
    for (const p of dt.params ?? []) {
      const prop = props[p.name];
      assert.ok(prop, `${dt.tool} has input ${p.name}`);
      if (p.enum) assert.deepEqual(prop.enum, [...p.enum]);
      if (p.required) assert.ok(t.inputSchema.required?.includes(p.name));
    }
    if (dt.scope !== 'global' && !dt.fixedCity) assert.ok(t.inputSchema.required?.includes('city'), `${dt.tool} requires city`);
    if (dt.list) for (const p of ['page', 'offset', 'all']) assert.ok(props[p], `${dt.tool} pages (${p})`);
  }
  for (const name of FIXED_TOOLS) {
    const t = tools.find((x) => x.name === name);
    assert.ok(t, `fixed tool ${name}`);
    assert.equal(t.annotations?.readOnlyHint, true);
    assert.equal(t.annotations?.destructiveHint, false);
    assert.equal(t.annotations?.idempotentHint, true);
    assert.equal(t.annotations?.openWorldHint, !['list_cities', 'get_city', 'sources'].includes(name));
  }
}

/** weather with a tolerant slug: the structured content is the REST envelope of the same input. */
export async function checkWeatherEqualsRest(client: Client, rest: (path: string) => Promise<TestResponse>) {
  const r = await call(client, 'weather', { city: 'München' });
  assert.equal(r.isError, undefined);
  assert.equal(at(r.structuredContent, 'meta.city'), 'muenchen');
  assert.equal(at(r.structuredContent, 'meta.source_status'), 'ok');
  const viaRest = await rest(`/api/v1/cities/${encodeURIComponent('München')}/weather`);
  assert.equal(viaRest.status, 200);
  assert.deepEqual(at(r.structuredContent, 'data'), at(viaRest.json, 'data'));
  assert.deepEqual(at(r.structuredContent, 'attribution'), at(viaRest.json, 'attribution'));
  const text = r.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
  assert.match(nth(text, 0), /^Weather for muenchen: source_status ok/);
  assert.deepEqual(JSON.parse(nth(text, 1)).data, at(viaRest.json, 'data'));
}

export async function checkUnknownCity(client: Client) {
  const r = await call(client, 'weather', { city: 'Müncen' });
  assert.equal(r.isError, true);
  assert.equal(at(r.structuredContent, 'code'), 'city_not_found');
  assert.equal(at(r.structuredContent, 'status'), 404);
  assert.match(str(r.structuredContent, 'hint'), /Did you mean "muenchen"\?/);
  const text = (r.content[0] as { text: string }).text;
  assert.match(text, /city_not_found/);
  assert.match(text, /Did you mean "muenchen"\?/);
}

export async function checkListCitiesBinding(client: Client) {
  const bound = await call(client, 'list_cities', {});
  assert.equal(at(bound.structuredContent, 'data.length'), DEFAULT_CHANNEL_LIMIT);
  assert.deepEqual(
    {
      channel: at(bound.structuredContent, 'meta.pagination.channel'),
      applied: at(bound.structuredContent, 'meta.pagination.applied'),
      limit: at(bound.structuredContent, 'meta.pagination.limit'),
      total: at(bound.structuredContent, 'meta.pagination.total'),
    },
    { channel: 'mcp', applied: true, limit: DEFAULT_CHANNEL_LIMIT, total: CITIES.length },
  );
  const all = await call(client, 'list_cities', { limit: 'all' });
  assert.equal(at(all.structuredContent, 'data.length'), 84);
  assert.equal(at(all.structuredContent, 'meta.pagination.forced_all'), true);
  assert.equal(at(all.structuredContent, 'meta.pagination.applied'), false);
  const allFlag = await call(client, 'list_cities', { all: true });
  assert.equal(at(allFlag.structuredContent, 'data.length'), 84);
  const last = await call(client, 'list_cities', { page: 4 });
  assert.equal(at(last.structuredContent, 'data.length'), 84 - 3 * DEFAULT_CHANNEL_LIMIT);
}

export async function checkPrompt(client: Client) {
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), ['city_briefing', 'commute_check', 'compare_cities']);
  const p = await client.getPrompt({ name: 'city_briefing', arguments: { city: 'München' } });
  const text = (nth(p.messages, 0).content as { text: string }).text;
  assert.match(text, /München \(slug muenchen/);
  assert.match(text, /- weather with \{"city": "muenchen"\}/);
}

export async function checkResource(client: Client, catalog: Catalog) {
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.uri).sort(), ['stadtdaten://catalog', 'stadtdaten://cities', 'stadtdaten://sources']);
  const res = await client.readResource({ uri: 'stadtdaten://catalog' });
  const doc = JSON.parse((res.contents[0] as { text: string }).text);
  assert.equal(nth(res.contents, 0).mimeType, 'application/json');
  assert.equal(doc.data.data_types.length, catalog.all.length);
  assert.equal(doc.meta.tools_total, catalog.all.length + FIXED_TOOLS.length);
  const weather = doc.data.data_types.find((d: { type: string }) => d.type === 'weather');
  assert.deepEqual(
    { tool: weather.tool, path: weather.path, label: weather.label },
    { tool: 'weather', path: '/api/v1/cities/{slug}/weather', label: 'Wetter' },
  );
  const cities = await client.readResource({ uri: 'stadtdaten://cities' });
  assert.equal(JSON.parse((cities.contents[0] as { text: string }).text).data.length, 84);
}
