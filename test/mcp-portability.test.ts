import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { startApp, type TestApp } from './helpers/app.ts';
import { MAX_TOOL_LIST_BYTES, toolList } from './mcp-shared.ts';

/**
 * The tools' schemas as portable as MCP clients need them (the MCP Inspector's strict reading,
 * and model APIs that take tool schemas as function declarations): each rule below is one
 * warning per place that breaks it, and tools/list has none.
 */

let app: TestApp;
let client: Client;
let tools: Tool[];
let bytes: number;
before(async () => {
  app = await startApp();
  client = new Client({ name: 'stadtdaten-portability', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
  ({ tools, bytes } = await toolList(client));
});
after(async () => {
  await client?.close();
  await app?.close();
});

type Schema = Record<string, unknown>;
const isSchema = (x: unknown): x is Schema => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const ONE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions'];

function* subschemas(s: Schema, at: string): Generator<[Schema, string]> {
  yield [s, at];
  for (const k of ONE) if (isSchema(s[k])) yield* subschemas(s[k], `${at}/${k}`);
  for (const k of LIST) if (Array.isArray(s[k])) for (const [i, x] of (s[k] as unknown[]).entries()) if (isSchema(x)) yield* subschemas(x, `${at}/${k}/${i}`);
  for (const k of MAP) if (isSchema(s[k])) for (const [n, x] of Object.entries(s[k])) if (isSchema(x)) yield* subschemas(x, `${at}/${k}/${n}`);
}

/** The portability warnings of one tool schema (`input` or `output`). */
function warnings(schema: Schema | undefined, at: string, input: boolean): string[] {
  if (!schema) return input ? [`${at}: missing`] : [];
  const out: string[] = [];
  if (schema.type !== 'object') out.push(`${at}: the root is not type object`);
  for (const [s, where] of subschemas(schema, at)) {
    // "X or null" as anyOf [{type: X}, {type: 'null'}]: clients that read `type` as one string miss the array form.
    if (Array.isArray(s.type)) out.push(`${where}: array-valued type ${JSON.stringify(s.type)}`);
    // OpenAPI 3.0's `nullable` is no JSON Schema keyword: a validator ignores it and refuses the null.
    if ('nullable' in s) out.push(`${where}: nullable keyword`);
    // A tool schema stands alone: clients do not resolve references.
    if ('$ref' in s || '$defs' in s || 'definitions' in s) out.push(`${where}: reference`);
    // Function-calling APIs refuse an array parameter without its item schema.
    if (input && s.type === 'array' && !isSchema(s.items)) out.push(`${where}: array without items`);
  }
  return out;
}

test('MCP: every tool’s input and output schema is portable (no array-valued type, no nullable, no $ref, object roots, arrays with items): 0 warnings', () => {
  const found = tools.flatMap((t) => [
    ...warnings(t.inputSchema as Schema, `${t.name}/inputSchema`, true),
    ...warnings(t.outputSchema as Schema | undefined, `${t.name}/outputSchema`, false),
  ]);
  assert.deepEqual(found, []);
  assert.ok(
    tools.every((t) => t.outputSchema),
    'every tool declares an outputSchema',
  );
  assert.ok(bytes <= MAX_TOOL_LIST_BYTES, `tools/list is ${bytes} bytes`);
});

test('MCP portability: the checks find what they look for', () => {
  const bad = {
    type: 'object',
    properties: { a: { type: ['string', 'null'] }, b: { type: 'string', nullable: true }, c: { $ref: '#/x' }, d: { type: 'array' } },
  };
  assert.deepEqual(warnings(bad, 't', true), [
    't/properties/a: array-valued type ["string","null"]',
    't/properties/b: nullable keyword',
    't/properties/c: reference',
    't/properties/d: array without items',
  ]);
  assert.deepEqual(warnings({ type: 'array', items: {} }, 'u', false), ['u: the root is not type object']);
});
