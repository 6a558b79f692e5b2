import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, type Demo } from '../scripts/demo.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { dataSchemaOf, examplePath } from '../src/core/data-type.ts';
import EXAMPLES from '../src/http/openapi-examples.json' with { type: 'json' };

/**
 * The typed contract: every data type, run on the fixtures its example models (real upstream
 * formats on loopback), answers `ok` with `data` that its published schema accepts in full:
 * no field missing, no undeclared field, no wrong type.
 */
let demo: Demo;
before(async () => {
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
});
after(async () => {
  await demo.close();
});

for (const dt of CATALOG.all) {
  test(`contract: ${dt.type} answers ok on its example and matches its schema`, async () => {
    const res = await fetch(demo.url + examplePath(dt));
    const body = (await res.json()) as { data: unknown; meta: { source_status: string } };
    assert.equal(res.status, 200, examplePath(dt));
    assert.equal(body.meta.source_status, 'ok', `${examplePath(dt)}: ${JSON.stringify(body.meta)}`);
    const checked = dataSchemaOf(dt).safeParse(body.data);
    assert.ok(checked.success, `${dt.type}: ${JSON.stringify(checked.error?.issues.slice(0, 5), null, 1)}`);
  });
}

test('contract: every data type has a generated example answer that matches its schema', () => {
  const examples = EXAMPLES as Record<string, unknown>;
  for (const dt of CATALOG.all) {
    assert.ok(Object.hasOwn(examples, dt.type), `no example for ${dt.type}: run npm run openapi-examples`);
    const checked = dataSchemaOf(dt).safeParse((examples[dt.type] as { data: unknown }).data);
    assert.ok(checked.success, `example of ${dt.type} is stale: ${JSON.stringify(checked.error?.issues.slice(0, 3))}`);
  }
});

test('contract: every data-type operation in the OpenAPI document has a typed data schema and an example answer by reference', async () => {
  const spec = (await (await fetch(demo.url + '/api/v1/openapi.json')).json()) as {
    paths: Record<string, { get: { operationId: string; responses: Record<string, Response> } }>;
    components: {
      schemas: Record<string, { type?: string; properties?: Record<string, { anyOf?: { $ref?: string }[] }>; items?: unknown; examples?: unknown[] }>;
      responses: Record<string, Response>;
    };
  };
  type Response = { $ref?: string; content?: Record<string, { schema: { $ref?: string }; examples?: Record<string, { externalValue?: string }> }> };
  const component = (ref: string | undefined) => spec.components.schemas[ref?.replace('#/components/schemas/', '') ?? ''];
  // A data type's 200 is a shared response component, referred to by its path and its aliases.
  const response = (r: Response | undefined) => (r?.$ref ? spec.components.responses[r.$ref.replace('#/components/responses/', '')] : r);
  for (const dt of CATALOG.all) {
    const path = dt.path ?? `/api/v1/cities/{city}/${dt.type}`;
    const op = spec.paths[path]?.get;
    assert.ok(op, `no operation for ${path}`);
    const answer = component(response(op.responses['200'])?.content?.['application/json']?.schema.$ref);
    assert.ok(answer, `${path}: the answer is not a named schema`);
    const dataRef = answer.properties?.data?.anyOf?.[0]?.$ref;
    assert.match(dataRef ?? '', /#\/components\/schemas\/\w+Data$/, `${path}: data is untyped`);
    const schema = component(dataRef);
    assert.ok(schema && (schema.properties || schema.items), `${dataRef} has no fields`);
    assert.equal(schema.examples, undefined, `${dataRef}: examples are referred to, not embedded`);
    const examples = Object.values(response(op.responses['200'])?.content?.['application/json']?.examples ?? {});
    assert.equal(examples.length, 1, `${path}: one example answer`);
    const res = await fetch(new URL(examples[0]?.externalValue ?? '', demo.url + '/api/v1/openapi.json'));
    assert.equal(res.status, 200, `${path}: ${examples[0]?.externalValue}`);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const example = (await res.json()) as { data: unknown; meta: { type: string; source_status: string } };
    assert.deepEqual([example.meta.type, example.meta.source_status], [dt.type, 'ok'], `${path}: the example is an ok answer of its own type`);
    assert.ok(dataSchemaOf(dt).safeParse(example.data).success, `${path}: the example's data matches the schema`);
  }
  const unknown = await fetch(demo.url + '/docs/examples/nope.json');
  assert.equal(unknown.status, 404);
  assert.equal(((await unknown.json()) as { code: string }).code, 'route_not_found');
});
