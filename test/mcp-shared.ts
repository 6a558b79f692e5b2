import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Catalog } from '../src/catalog/index.ts';
import { CITIES } from '../src/cities/register.ts';
import { coveredCities, FIXED_TOOLS, toolNamesOf, toolOf, type DataType } from '../src/core/data-type.ts';
import { DEFAULT_CHANNEL_LIMIT } from '../src/http/pagination.ts';
import { APP_VIEWS, appUri } from '../src/mcp/apps.ts';
import type { TestResponse } from './helpers/app.ts';
import { nth } from './helpers/must.ts';
import { at, str } from './helpers/json.ts';

/**
 * Checks both MCP transports must pass with the official SDK client; `rest` answers the same
 * question over REST so results can be compared with the REST envelope.
 */
export const MAX_TOOLS = 20;
/** 40 KB, read strictly as 40,000 bytes. */
export const MAX_TOOL_LIST_BYTES = 40_000;

const validator = new AjvJsonSchemaValidator();

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent: unknown }> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: unknown };
}

function texts(r: CallToolResult): string[] {
  return r.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
}

/** The result validates against the tool's declared outputSchema with a JSON Schema validator (ajv, as the SDK uses). */
function assertValid(tool: Tool, r: { structuredContent: unknown }) {
  assert.ok(tool.outputSchema, `${tool.name} declares an outputSchema`);
  const verdict = validator.getValidator(tool.outputSchema)(r.structuredContent);
  assert.ok(verdict.valid, `${tool.name}: ${verdict.errorMessage}`);
}

export async function toolList(client: Client): Promise<{ tools: Tool[]; bytes: number }> {
  const res = await client.listTools();
  return { tools: res.tools, bytes: Buffer.byteLength(JSON.stringify(res)) };
}

export async function checkInitialize(client: Client) {
  assert.equal(client.getServerVersion()?.name, 'stadtdaten');
  const caps = client.getServerCapabilities();
  assert.ok(caps?.tools && caps.prompts && caps.resources && caps.completions);
  assert.match(client.getInstructions() ?? '', /city_overview/);
}

/** At most 20 tools in at most 40 KB, annotated, each data type in exactly one tool's data_type enum with its parameters. */
export async function checkToolList(client: Client, catalog: Catalog) {
  const { tools, bytes } = await toolList(client);
  assert.ok(tools.length <= MAX_TOOLS, `${tools.length} tools`);
  assert.ok(bytes <= MAX_TOOL_LIST_BYTES, `tools/list is ${bytes} bytes`);
  assert.deepEqual(
    tools.map((t) => t.name),
    toolNamesOf(catalog.all),
  );
  assert.equal(tools.length, catalog.counts.mcp_tools);
  for (const name of FIXED_TOOLS)
    assert.ok(
      tools.some((t) => t.name === name),
      `fixed tool ${name}`,
    );
  for (const t of tools) {
    assert.ok(t.title && t.annotations?.title, `${t.name} has a title`);
    assert.equal(t.annotations?.readOnlyHint, true);
    assert.equal(t.annotations?.destructiveHint, false);
    assert.equal(t.annotations?.idempotentHint, true);
    assert.equal(t.annotations?.openWorldHint, !['find_city', 'sources', 'history'].includes(t.name), `${t.name} openWorldHint`);
    assert.equal(t.outputSchema?.type, 'object');
    assert.ok((t.description ?? '').length <= 400, `${t.name}: short description`);
  }
  for (const dt of catalog.all) {
    const owners = tools.filter((t) => ((t.inputSchema.properties?.data_type as { enum?: string[] } | undefined)?.enum ?? []).includes(dt.type));
    assert.deepEqual(
      owners.map((t) => t.name),
      [toolOf(dt)],
      `${dt.type} is a data_type of exactly its tool`,
    );
    const t = nth(owners, 0);
    const props = t.inputSchema.properties as Record<string, { enum?: string[]; description?: string }>;
    assert.match(props.data_type?.description ?? '', new RegExp(`^${dt.type}: `, 'm'), `${dt.type} has its one-line description`);
    for (const p of dt.params ?? []) {
      const prop = props[p.name];
      assert.ok(prop, `${t.name} has input ${p.name}`);
      if (p.enum) assert.deepEqual(prop.enum, [...p.enum]);
    }
    if (dt.scope !== 'global') assert.ok(props.city, `${t.name} takes city`);
    if (dt.list) for (const p of ['limit', 'page', 'offset']) assert.ok(props[p], `${t.name} pages (${p})`);
  }
}

function exampleArgs(dt: DataType): Record<string, unknown> {
  return { ...(dt.example.city ? { city: dt.example.city } : {}), data_type: dt.type, ...dt.example.params };
}

/**
 * Every data type through its tool with its declared example: the structured result validates
 * against the tool's outputSchema, and (where the example answers ok) its data against the full
 * schema resource stadtdaten://schemas/{data_type}.
 */
export async function checkEveryDataType(client: Client, catalog: Catalog, expectOk: (dt: DataType) => boolean) {
  const { tools } = await toolList(client);
  for (const dt of catalog.all) {
    const tool = tools.find((t) => t.name === toolOf(dt));
    assert.ok(tool, `tool ${toolOf(dt)}`);
    const r = await call(client, tool.name, exampleArgs(dt));
    assert.equal(r.isError, undefined, `${dt.type}: ${texts(r)[0]}`);
    assertValid(tool, r);
    assert.equal(at(r.structuredContent, 'meta.type'), dt.type);
    assertLicenceOnce(texts(r).join('\n'), at(r.structuredContent, 'attribution'), dt.type);
    if (!expectOk(dt)) continue;
    assert.equal(at(r.structuredContent, 'meta.source_status'), 'ok', dt.type);
    const res = await client.readResource({ uri: `stadtdaten://schemas/${dt.type}` });
    const schema = JSON.parse((nth(res.contents, 0) as { text: string }).text) as Record<string, unknown>;
    const verdict = validator.getValidator(schema)(at(r.structuredContent, 'data'));
    assert.ok(verdict.valid, `${dt.type} data against stadtdaten://schemas/${dt.type}: ${verdict.errorMessage}`);
  }
}

/** The text's credit names each licence as often as the attribution does, never twice for one source. */
function assertLicenceOnce(text: string, attribution: unknown, type: string) {
  const line = text.split('\n').find((l) => l.startsWith('Source: ')) ?? '';
  const list = (Array.isArray(attribution) ? attribution : attribution ? [attribution] : []) as { license?: unknown }[];
  const licences = list.map((a) => a.license).filter((l): l is string => typeof l === 'string' && l.length > 0);
  for (const l of new Set(licences)) {
    const times = line.toLowerCase().split(l.toLowerCase()).length - 1;
    assert.ok(times <= licences.filter((x) => x === l).length, `${type}: the credit names ${l} ${times} times: ${line}`);
  }
}

/**
 * environment/weather with a tolerant slug (of Freiburg, whose weather is recorded): the structured
 * content is the REST envelope; the text is a compact rendering.
 */
export async function checkWeatherEqualsRest(client: Client, rest: (path: string) => Promise<TestResponse>) {
  const r = await call(client, 'environment', { city: 'Freiburg', data_type: 'weather' });
  assert.equal(r.isError, undefined);
  assert.equal(at(r.structuredContent, 'meta.city'), 'freiburg-im-breisgau');
  assert.equal(at(r.structuredContent, 'meta.source_status'), 'ok');
  const viaRest = await rest('/api/v1/cities/Freiburg/weather');
  assert.equal(viaRest.status, 200);
  assert.deepEqual(at(r.structuredContent, 'data'), at(viaRest.json, 'data'));
  assert.deepEqual(at(r.structuredContent, 'attribution'), at(viaRest.json, 'attribution'));
  const text = texts(r);
  assert.equal(text.length, 1, 'one text block, not the envelope twice');
  assert.match(nth(text, 0), /^Environment and weather \(weather\) for freiburg-im-breisgau: source_status ok/);
  assert.match(nth(text, 0), /^temperature_c: -?\d/m);
  assert.ok(!nth(text, 0).includes('"attribution"'), 'no envelope JSON in the text');
}

export async function checkUnknownCity(client: Client) {
  const r = await call(client, 'environment', { city: 'Müncen', data_type: 'weather' });
  assert.equal(r.isError, true);
  assert.equal(at(r.structuredContent, 'code'), 'city_not_found');
  assert.equal(at(r.structuredContent, 'status'), 404);
  assert.match(str(r.structuredContent, 'hint'), /Did you mean "muenchen"\?/);
  const text = nth(texts(r), 0);
  assert.match(text, /city_not_found/);
  assert.match(text, /Did you mean "muenchen"\?/);
  const found = await call(client, 'find_city', { query: 'Hamburgg' });
  assert.equal(at(found.structuredContent, 'code'), 'city_not_found');
  assert.match(str(found.structuredContent, 'hint'), /"hamburg"/);
}

/** Bad input is a tool error with code and hint, never a protocol error. */
export async function checkInputErrors(client: Client) {
  const typo = await call(client, 'environment', { city: 'berlin', data_type: 'wether' });
  assert.equal(typo.isError, true);
  assert.equal(at(typo.structuredContent, 'code'), 'invalid_parameter');
  assert.match(str(typo.structuredContent, 'hint'), /Did you mean "weather"\? data_type must be one of: weather, /);
  const elsewhere = await call(client, 'environment', { city: 'berlin', data_type: 'pois' });
  assert.match(str(elsewhere.structuredContent, 'hint'), /Call places with data_type "pois"/);
  const missing = await call(client, 'environment', { city: 'berlin' });
  assert.equal(at(missing.structuredContent, 'code'), 'invalid_request');
  assert.match(str(missing.structuredContent, 'hint'), /data_type must be one of: weather/);
  const wrongType = await call(client, 'environment', { city: 42, data_type: 'weather' });
  assert.equal(at(wrongType.structuredContent, 'code'), 'invalid_parameter');
  const stray = await call(client, 'environment', { city: 'berlin', data_type: 'weather', colour: 'red' });
  assert.equal(at(stray.structuredContent, 'code'), 'invalid_request');
  assert.match(str(stray.structuredContent, 'hint'), /environment takes: city, data_type/);
  const notHere = await call(client, 'departures', { city: 'berlin', data_type: 'departures-hvv', stop_id: 'x' });
  assert.match(str(notHere.structuredContent, 'hint'), /departures-hvv takes: city, stop/);
  await assert.rejects(client.callTool({ name: 'weather', arguments: {} }), /Unknown tool "weather"/);
}

export async function checkFindCityBinding(client: Client) {
  const bound = await call(client, 'find_city', {});
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
  assert.match(nth(texts(bound), 0), /25 of 84 items from offset 0; pass limit "all"/);
  const all = await call(client, 'find_city', { limit: 'all' });
  assert.equal(at(all.structuredContent, 'data.length'), CITIES.length);
  assert.equal(at(all.structuredContent, 'meta.pagination.forced_all'), true);
  const last = await call(client, 'find_city', { page: 4 });
  assert.equal(at(last.structuredContent, 'data.length'), CITIES.length - 3 * DEFAULT_CHANNEL_LIMIT);
  const munich = await call(client, 'find_city', { query: 'Munich' });
  assert.equal(at(munich.structuredContent, 'data.slug'), 'muenchen');
}

const PROMPT_ARGS: Record<string, Record<string, string>> = {
  city_briefing: { city: 'Munich' },
  compare_cities: { cities: 'berlin, München', resource: 'weather' },
  departure_check: { city: 'hamburg' },
  explain_data: { city: 'Köln', data_type: 'population-structure' },
};

/** Every prompt names only tools that tools/list has, written "`tool` with {…}". */
export async function checkPrompts(client: Client) {
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), Object.keys(PROMPT_ARGS).sort());
  const names = new Set((await toolList(client)).tools.map((t) => t.name));
  for (const p of prompts) {
    const res = await client.getPrompt({ name: p.name, arguments: PROMPT_ARGS[p.name] });
    const text = (nth(res.messages, 0).content as { text: string }).text;
    const named = [...text.matchAll(/`(\w+)` with \{/g)].map((m) => nth(m, 1));
    assert.ok(named.length > 0, `${p.name} names tools`);
    for (const n of named) assert.ok(names.has(n), `${p.name} names the unknown tool ${n}`);
    assert.doesNotMatch(text, /roadworks/);
  }
  const briefing = await client.getPrompt({ name: 'city_briefing', arguments: { city: 'Munich' } });
  const text = (nth(briefing.messages, 0).content as { text: string }).text;
  assert.match(text, /München \(slug muenchen/);
  assert.match(text, /- `environment` with \{"city":"muenchen","data_type":"weather"\}/);
  await assert.rejects(client.getPrompt({ name: 'city_briefing', arguments: { city: 'Atlantis' } }), /Unknown city/);
}

async function completion(client: Client, ref: Parameters<Client['complete']>[0]['ref'], name: string, value: string, context?: Record<string, string>) {
  const res = await client.complete({ ref, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) });
  return res.completion.values;
}

/** city and data_type complete in prompts and resource templates; tolerant input gives canonical slugs. */
/** What data_type completion must give: the catalog's types starting with the value, then those containing it; with a city only the types covering it. */
function expectedTypeCompletion(catalog: Catalog, value: string, city?: string): string[] {
  const types = catalog.all.filter((dt) => !city || (dt.scope !== 'global' && (!coveredCities(dt) || coveredCities(dt)!.includes(city)))).map((dt) => dt.type);
  return [...types.filter((t) => t.startsWith(value)), ...types.filter((t) => !t.startsWith(value) && t.includes(value))];
}

export async function checkCompletions(client: Client, catalog: Catalog) {
  const cityTemplate = { type: 'ref/resource' as const, uri: 'stadtdaten://cities/{city}' };
  assert.equal(nth(await completion(client, cityTemplate, 'city', 'Munich'), 0), 'muenchen');
  assert.equal(nth(await completion(client, cityTemplate, 'city', 'Köln'), 0), 'koeln');
  assert.equal(nth(await completion(client, cityTemplate, 'city', 'Müncen'), 0), 'muenchen');
  const mue = await completion(client, cityTemplate, 'city', 'mün');
  assert.deepEqual(mue.slice(0, 2), ['muenchen', 'muenster'], 'prefix matches, larger city first');
  const prompt = { type: 'ref/prompt' as const, name: 'city_briefing' };
  assert.equal(nth(await completion(client, prompt, 'city', 'Munich'), 0), 'muenchen');
  const explain = { type: 'ref/prompt' as const, name: 'explain_data' };
  assert.deepEqual(await completion(client, explain, 'data_type', 'population'), expectedTypeCompletion(catalog, 'population'));
  const inHamburg = await completion(client, explain, 'data_type', 'departures-', { city: 'Hamburg' });
  assert.deepEqual(inHamburg, expectedTypeCompletion(catalog, 'departures-', 'hamburg'));
  assert.ok(inHamburg.includes('departures-hvv') && !inHamburg.includes('departures-rmv'), inHamburg.join());
  const dataTemplate = { type: 'ref/resource' as const, uri: 'stadtdaten://cities/{city}/{data_type}' };
  const weather = await completion(client, dataTemplate, 'data_type', 'weather');
  assert.deepEqual(weather, expectedTypeCompletion(catalog, 'weather'));
  assert.equal(nth(weather, 0), 'weather');
  const forHamburg = await completion(client, dataTemplate, 'data_type', 'departures', { city: 'Hamburg' });
  assert.deepEqual(forHamburg, expectedTypeCompletion(catalog, 'departures', 'hamburg'));
  const schemaTemplate = { type: 'ref/resource' as const, uri: 'stadtdaten://schemas/{data_type}' };
  assert.equal(nth(await completion(client, schemaTemplate, 'data_type', 'air'), 0), 'air');
}

export async function checkResources(client: Client, catalog: Catalog) {
  const { resources } = await client.listResources();
  const fixed = resources.filter((r) => !r.uri.startsWith('stadtdaten://schemas/')).map((r) => r.uri);
  // The MCP Apps views (mcp-apps-browser.test.ts reads and renders them).
  assert.deepEqual(fixed.sort(), ['stadtdaten://catalog', 'stadtdaten://cities', 'stadtdaten://sources', ...APP_VIEWS.map(appUri)].sort());
  assert.equal(resources.length - fixed.length, catalog.all.length, 'one schema resource per data type');
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), [
    'stadtdaten://cities/{city}',
    'stadtdaten://cities/{city}/{data_type}',
    'stadtdaten://schemas/{data_type}',
  ]);
  const read = async (uri: string) => JSON.parse((nth((await client.readResource({ uri })).contents, 0) as { text: string }).text);
  const doc = await read('stadtdaten://catalog');
  assert.equal(doc.data.data_types.length, catalog.all.length);
  assert.equal(doc.meta.tools_total, catalog.counts.mcp_tools);
  const weather = doc.data.data_types.find((d: { type: string }) => d.type === 'weather');
  assert.deepEqual(
    { tool: weather.tool, path: weather.path, label: weather.label, schema: weather.data_schema.type },
    { tool: 'environment', path: '/api/v1/cities/{city}/weather', label: 'Wetter', schema: 'object' },
  );
  assert.equal((await read('stadtdaten://cities')).data.length, CITIES.length);
  assert.equal((await read('stadtdaten://cities/Munich')).data.city.slug, 'muenchen');
  const data = await read('stadtdaten://cities/Freiburg/weather');
  assert.deepEqual([data.meta.type, data.meta.city, data.meta.source_status], ['weather', 'freiburg-im-breisgau', 'ok']);
  for (const dt of catalog.all) {
    if (dt.scope === 'global' || !dt.example.city || dt.params?.some((p) => p.required)) continue;
    const doc = await read(`stadtdaten://cities/${dt.example.city}/${dt.type}`);
    assert.equal(doc.meta.type, dt.type, `stadtdaten://cities/${dt.example.city}/${dt.type}`);
    if (dt.list === true && doc.meta.pagination) assert.equal(doc.meta.pagination.applied, false, `${dt.type}: the whole list`);
  }
  const schema = await read('stadtdaten://schemas/weather');
  assert.equal(schema.properties.temperature_c.unit, '°C', 'the weather schema names temperature_c in °C');
  await assert.rejects(client.readResource({ uri: 'stadtdaten://cities/Atlantis' }), /city_not_found/);
  await assert.rejects(client.readResource({ uri: 'stadtdaten://cities/berlin/pois' }), /Call the tool places/);
}
