import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDemo, type Demo } from '../scripts/demo.ts';
import { get, type TestResponse } from './helpers/app.ts';
import { routePath, type DataType } from '../src/core/data-type.ts';
import { cleanedInput } from '../src/core/problem.ts';

/**
 * A fuzz over hostile input, generated from a fixed seed so every run sends the same requests:
 * path segments and query values of every data type's route, the service routes, and MCP tool
 * arguments. No answer is a 5xx, no answer repeats the input or any hostile part of it (a
 * problem may quote at most a cleaned form: [a-z0-9-], at most 40 characters), and every
 * refusal is a problem document with code and hint.
 */
let demo: Demo;
let app: { url: string; rt: Demo['built']['rt'] };
before(async () => {
  // The demo: every upstream answers from its fixtures, so input that gets past validation
  // meets a working upstream, and any 5xx is the service's own.
  // Well over a client's per-window budget of requests from one address.
  process.env.RATE_LIMIT_ENABLED = 'false';
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
  app = { url: demo.url, rt: demo.built.rt };
});
after(async () => {
  delete process.env.RATE_LIMIT_ENABLED;
  await demo.close();
});

/** Each holds a character outside [a-z0-9-], so none survives cleaning. */
const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '<svg/onload=alert(1)>',
  "'; DROP TABLE cities;--",
  '${7*7}',
  '{{7*7}}',
  '../../etc/passwd',
  '\r\nSet-Cookie: x=1',
  '\u202Egnp.exe',
  '%00%0d%0a',
  'javascript:alert(1)',
  '\\u003cb\\u003e',
  'Ünïcödé™',
  '😀🔥',
  '\u0000\u0001\u001f',
  '`id`',
  'A'.repeat(300),
];

/** mulberry32: a small seeded generator, so the fuzz is the same on every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = rng(26);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

interface Input {
  value: string;
  tokens: string[];
}

function hostileInput(): Input {
  const tokens = Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(HOSTILE));
  // No word that names a city: a hostile city value must never resolve to a real one.
  const word = pick(['Weather', 'zQx', '', 'X1']);
  return { value: word + tokens.join(pick(['', ' ', '/', '-'])), tokens };
}

const INPUTS: Input[] = Array.from({ length: 80 }, hostileInput);

/** Every string anywhere in a JSON value. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  }
  return out;
}

/** The answer repeats neither the input nor a hostile part of it, in its body or its headers. */
function assertNoEcho(text: string, headers: Headers | null, input: Input, what: string) {
  const parsed = (() => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  })();
  const seen = [text, ...strings(parsed), ...(headers ? [...headers.values()] : [])].join('\n');
  const lower = seen.toLowerCase();
  assert.ok(!seen.includes(input.value), `${what}: the input is echoed`);
  for (const token of input.tokens) {
    // A cleaned form is allowed; the token itself, in any case, is not.
    assert.ok(!lower.includes(token.toLowerCase()), `${what}: echoes ${JSON.stringify(token.slice(0, 30))}`);
  }
}

function assertAnswer(r: TestResponse, input: Input, what: string) {
  assert.ok(r.status < 500, `${what}: ${r.status} ${r.text.slice(0, 200)}`);
  assertNoEcho(r.text, r.headers, input, what);
  if (r.status >= 400) {
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
    const body = r.json as { code?: unknown; hint?: unknown };
    assert.ok(typeof body.code === 'string' && typeof body.hint === 'string' && body.hint.length > 0, `${what}: code and hint`);
  }
}

/** A path template with `{name}` holes and the query parameters a route takes. */
interface Target {
  template: string;
  query: string[];
  fill: Record<string, string>;
}

function targets(all: readonly DataType[]): Target[] {
  const out: Target[] = [
    { template: '/api/v1/cities/{city}', query: ['limit', 'page'], fill: { city: 'koeln' } },
    { template: '/api/v1/cities/{city}/overview', query: [], fill: { city: 'koeln' } },
    { template: '/api/v1/cities/{city}/{type}', query: [], fill: { city: 'koeln', type: 'weather' } },
    { template: '/api/v1/live/{city}/{type}', query: [], fill: { city: 'koeln', type: 'departures' } },
    { template: '/api/v1/cities', query: ['limit', 'page', 'offset', 'all', 'sort', 'order'], fill: {} },
    { template: '/api/v1/sources', query: ['limit', 'page', 'sort', 'order'], fill: {} },
    { template: '/api/v1/compare', query: ['resource', 'cities', 'sort', 'order', 'limit'], fill: {} },
    { template: '/api/v1/coverage', query: ['group', 'city'], fill: {} },
    { template: '/coverage/{city}', query: [], fill: { city: 'koeln' } },
    { template: '/api/v1/{rest}', query: [], fill: { rest: 'cities' } },
  ];
  for (const dt of all) {
    const fill: Record<string, string> = { slug: dt.example.city ?? 'koeln', city: dt.example.city ?? 'koeln' };
    for (const [k, v] of Object.entries(dt.example.params ?? {})) fill[k] = String(v);
    const template = routePath(dt);
    const inPath = new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
    out.push({ template, query: [...(dt.params ?? []).map((p) => p.name).filter((n) => !inPath.has(n)), ...(dt.list ? ['limit', 'page'] : [])], fill });
  }
  return out;
}

/** One request per (target, hole): the hostile value in that hole, the example values elsewhere. */
function requestsFor(t: Target, input: Input): string[] {
  const holes = [...t.template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const path = (hostile: string | null) =>
    t.template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(k === hostile ? input.value : (t.fill[k] ?? 'koeln')));
  const example = new URLSearchParams(Object.entries(t.fill).filter(([k]) => t.query.includes(k)));
  const out = holes.map((h) => path(h) + (example.size ? `?${example}` : ''));
  for (const q of t.query) {
    const params = new URLSearchParams(example);
    params.set(q, input.value);
    out.push(`${path(null)}?${params}`);
  }
  return out;
}

test('hostile path segments and query values: never a 5xx, never echoed, every refusal a problem with code and hint', async () => {
  const all = targets(app.rt.catalog.all);
  let sent = 0;
  for (const [i, input] of INPUTS.entries()) {
    // Every target meets several inputs; each input visits a seeded sample of the targets.
    const chosen = all.filter((_, j) => (j + i) % 8 === 0);
    for (const t of chosen) {
      for (const path of requestsFor(t, input)) {
        assertAnswer(await get(app.url + path), input, path.slice(0, 160));
        sent++;
      }
    }
  }
  assert.ok(sent >= 1000, `${sent} requests`);
});

test('a problem quotes at most the cleaned input: an unknown data type is named as [a-z0-9-], at most 40 characters', async () => {
  const r = await get(`${app.url}/api/v1/cities/koeln/${encodeURIComponent('zQx<script>alert(1)</script>')}`);
  assert.equal(r.status, 404);
  assert.equal((r.json as { detail: string }).detail, 'unknown data type "zqxscriptalert1script"');
  assert.equal(cleanedInput('Wëther'.repeat(20)).length, 40);
  assert.equal(cleanedInput('<>"'), '');
  const bare = await get(`${app.url}/api/v1/cities/koeln/${encodeURIComponent('<>')}`);
  assert.equal((bare.json as { detail: string }).detail, 'unknown data type');
});

test('MCP: hostile tool arguments, names, resources and prompt arguments are never echoed', async () => {
  const client = new Client({ name: 'fuzz', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const dataTool = tools.find((t) => !['find_city', 'city_overview', 'compare_cities', 'sources'].includes(t))!;
    for (const input of INPUTS.slice(0, 30)) {
      const calls: [string, () => Promise<unknown>][] = [
        ['find_city', () => client.callTool({ name: 'find_city', arguments: { query: input.value } })],
        ['city_overview', () => client.callTool({ name: 'city_overview', arguments: { city: input.value } })],
        [dataTool, () => client.callTool({ name: dataTool, arguments: { city: 'koeln', data_type: input.value } })],
        ['unknown argument', () => client.callTool({ name: 'sources', arguments: { [input.value]: 1 } })],
        ['compare_cities', () => client.callTool({ name: 'compare_cities', arguments: { cities: [input.value, 'koeln'], resource: 'weather' } })],
        ['compare resource', () => client.callTool({ name: 'compare_cities', arguments: { cities: 'koeln', resource: input.value } })],
        ['unknown tool', () => client.callTool({ name: input.value, arguments: {} })],
        ['city resource', () => client.readResource({ uri: `stadtdaten://cities/${encodeURIComponent(input.value)}` })],
        ['schema resource', () => client.readResource({ uri: `stadtdaten://schemas/${encodeURIComponent(input.value)}` })],
        ['prompt', () => client.getPrompt({ name: 'explain_data', arguments: { city: 'koeln', data_type: input.value } })],
      ];
      for (const [what, run] of calls) {
        const text = await run().then(
          (r) => JSON.stringify(r),
          (err: unknown) => String((err as Error).message),
        );
        assertNoEcho(text, null, input, `MCP ${what}`);
      }
    }
  } finally {
    await client.close();
  }
});
