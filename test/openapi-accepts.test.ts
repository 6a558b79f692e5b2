import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, type Demo } from '../scripts/demo.ts';
import { dataSchemaOf, examplePath, routePath, type DataType } from '../src/core/data-type.ts';
import { formatsOf } from '../src/core/formats.ts';
import type { z } from '../src/core/schema.ts';
import { mapLimit } from '../src/core/limit.ts';
import { answerPointer, documentValidator, errorsOf, exampleRequest, type Doc } from './helpers/openapi-doc.ts';

/**
 * The served OpenAPI document accepts exactly what the service sends: ajv (JSON Schema 2020-12,
 * formats checked) over /api/v1/openapi.json accepts every answer of the demo (the recorded
 * fixtures, in JSON and GeoJSON, ok and otherwise), and agrees with the record schemas (zod, the
 * source of truth) on every field set to null or left out.
 */

let demo: Demo;
let doc: Doc;
let validator: ReturnType<typeof documentValidator>;
before(async () => {
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
  doc = (await (await fetch(`${demo.url}/api/v1/openapi.json`)).json()) as Doc;
  validator = documentValidator(doc);
});
after(async () => {
  await demo?.close();
});

const MEDIA = ['application/json', 'application/problem+json', 'application/geo+json'];

/** A request whose answer is checked against the operation `path` documents. */
type Check = { url: string; path: string; headers?: Record<string, string> };

/** What the document says against the answer of one request ('' when it accepts it). */
async function violation({ url, path, headers }: Check): Promise<string> {
  const res = await fetch(demo.url + url, { headers });
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!;
  const text = await res.text();
  if (!MEDIA.includes(type)) return '';
  const at = answerPointer(doc, path, 'get', res.status, type);
  if (!at) return `${url}: ${res.status} ${type} is not documented`;
  const v = validator(at);
  return v(JSON.parse(text)) ? '' : `${url} (${res.status} ${type}): ${errorsOf(v)}`;
}

const perCity = (dt: DataType) => /\{(slug|city)\}/.test(routePath(dt));

/** Every documented GET, and per data type its example in each format it offers and for a city it has no recording of. */
function checks(): Check[] {
  const out: Check[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) if (ops.get) out.push({ url: exampleRequest(doc, path, ops.get), path });
  for (const dt of demo.built.rt.catalog.all) {
    const path = routePath(dt);
    const url = examplePath(dt);
    out.push({ url, path });
    if (formatsOf(dt).includes('geojson')) out.push({ url, path, headers: { accept: 'application/geo+json' } });
    if (dt.compare)
      out.push({
        url: `/api/v1/compare?resource=${dt.compare.resource}&cities=${dt.example.city ?? 'koeln'},kiel,nowhere-x&format=geojson`,
        path: '/api/v1/compare',
      });
    if (perCity(dt)) out.push({ url: url.replace(`/${dt.example.city}/`, '/kiel/'), path }, { url: url.replace(`/${dt.example.city}/`, '/nowhere-x/'), path });
  }
  return out;
}

test('OpenAPI: ajv over the served document accepts every answer of the demo (every documented GET, each data type in JSON and GeoJSON, other cities)', async () => {
  const all = checks();
  const found = (await mapLimit(all, 4, violation)).filter(Boolean);
  assert.deepEqual(found, []);
  assert.ok(all.length > 300, `${all.length} requests`);
});

/** Arrays cut to their first two items (the mutations change the first), so each check stays small. */
function trimmed(v: unknown): unknown {
  if (Array.isArray(v)) return v.slice(0, 2).map(trimmed);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trimmed(x)]));
  return v;
}

/** Each member of `v` once per place in the schema (the first item of an array stands for all), with where it sits. */
function* places(v: unknown, path: string): Generator<[holder: Record<string, unknown> | unknown[], key: string | number, path: string]> {
  if (Array.isArray(v)) {
    if (v.length === 0) return;
    yield [v, 0, `${path}/0`];
    yield* places(v[0], `${path}/0`);
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      yield [v as Record<string, unknown>, k, `${path}/${k}`];
      yield* places(x, `${path}/${k}`);
    }
  }
}

/**
 * Every member of `root` (within `part`) set to null, and every object member left out: where
 * the zod schema accepts the change, the document must too, and where zod refuses it, so must the
 * document. Returns the disagreements and the number of changes tried.
 */
function disagreements(name: string, root: Record<string, unknown>, part: 'data' | null, schema: z.ZodType, at: string): [string[], number] {
  const v = validator(at);
  const out: string[] = [];
  let tried = 0;
  const target = part ? root[part] : root;
  const judge = (what: string, path: string) => {
    tried++;
    const zod = schema.safeParse(part ? root[part] : root).success;
    const ajv = v(root);
    if (zod !== ajv) out.push(`${name} ${path} ${what}: zod ${zod ? 'accepts' : 'refuses'}, the document ${ajv ? 'accepts' : `refuses (${errorsOf(v)})`}`);
  };
  for (const [holder, key, path] of [...places(target, '')]) {
    const kept = (holder as Record<string | number, unknown>)[key];
    if (kept === null) continue;
    (holder as Record<string | number, unknown>)[key] = null;
    judge('= null', path);
    (holder as Record<string | number, unknown>)[key] = kept;
    if (typeof key === 'string') {
      delete (holder as Record<string, unknown>)[key];
      judge('left out', path);
      (holder as Record<string, unknown>)[key] = kept;
    }
  }
  return [out, tried];
}

test('OpenAPI: every data type’s schema in the document agrees with its record on each field set to null or left out', async () => {
  const found: string[] = [];
  let tried = 0;
  await mapLimit(demo.built.rt.catalog.all, 4, async (dt) => {
    const body = trimmed(await (await fetch(demo.url + examplePath(dt))).json()) as Record<string, unknown>;
    const at = answerPointer(doc, routePath(dt), 'get', 200, 'application/json');
    assert.ok(at, dt.type);
    assert.ok(validator(at)(body), `${dt.type}: ${errorsOf(validator(at))}`);
    const [d, n] = disagreements(dt.type, body, 'data', dataSchemaOf(dt), at);
    found.push(...d);
    tried += n;
  });
  assert.deepEqual(found, []);
  assert.ok(tried > 3000, `${tried} changes`);
});

test('OpenAPI: every service answer’s schema in the document agrees with its zod schema on each field set to null or left out', async () => {
  const found: string[] = [];
  let tried = 0;
  for (const r of demo.built.routes) {
    // The document itself: only its frame is described, and changing its thousands of members tells nothing.
    if (r.method !== 'GET' || !r.doc.answer || r.doc.hidden || r.doc.answer.name === 'OpenApiDocument') continue;
    const path = r.url.replace(/:(\w+)/g, '{$1}');
    const op = doc.paths[path]?.get;
    assert.ok(op, path);
    const body = trimmed(await (await fetch(demo.url + exampleRequest(doc, path, op))).json()) as Record<string, unknown>;
    const at = answerPointer(doc, path, 'get', 200, 'application/json');
    assert.ok(at, path);
    const [d, n] = disagreements(path, body, null, r.doc.answer.schema(), at);
    found.push(...d);
    tried += n;
  }
  assert.deepEqual(found, []);
  assert.ok(tried > 500, `${tried} changes`);
});
