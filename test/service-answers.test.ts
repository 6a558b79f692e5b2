import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { answerSchemaFor } from './helpers/service-answers.ts';
import { startDemo, type Demo } from '../scripts/demo.ts';

/**
 * Every service answer matches the schema the OpenAPI document publishes for it, in the states a
 * client meets: keyless (disabled sources), demo (everything answering), paged, sorted, with an
 * unknown city in a comparison. (Every other test's GET is checked the same way by the helper.)
 */

const REQUESTS = [
  '/api/v1',
  '/api/v1/health',
  '/api/v1/cities',
  '/api/v1/cities?limit=2&page=3',
  '/api/v1/cities/Cologne',
  '/api/v1/cities/berlin',
  '/api/v1/sources',
  '/api/v1/sources?sort=enabled&order=desc&limit=5',
  '/api/v1/cities/koeln/overview',
  '/api/v1/cities/freiburg-im-breisgau/overview',
  '/api/v1/compare?resource=weather&cities=berlin,koeln,atlantis&sort=value',
  '/api/v1/compare?resource=parking&cities=koeln,dortmund&sort=source_status&order=desc',
  '/api/v1/compare?resource=air&cities=berlin',
  '/api/v1/problems',
  '/api/v1/coverage',
  '/api/v1/coverage/koeln',
  '/api/v1/openapi.json',
];

let fake: FakeUpstream;
let keyless: TestApp;
let demo: Demo;
before(async () => {
  fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  keyless = await startApp(fakeEnv(fake.url));
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
});
after(async () => {
  await keyless?.close();
  await fake?.stop();
  await demo?.close();
});

test('service answers match their published schemas: keyless and demo, paged, sorted, with an unknown city', async () => {
  let checked = 0;
  for (const [name, base, routes] of [
    ['keyless', keyless.url, keyless.routes],
    ['demo', demo.url, demo.built.routes],
  ] as const) {
    for (const path of REQUESTS) {
      const res = await fetch(base + path);
      assert.equal(res.status, 200, `${name} ${path}`);
      const schema = answerSchemaFor(routes, path);
      assert.ok(schema, `${path}: no published answer schema`);
      const result = schema.safeParse(await res.json());
      assert.ok(result.success, `${name} ${path}: ${JSON.stringify(result.error?.issues.slice(0, 5))}`);
      checked++;
    }
  }
  assert.equal(checked, REQUESTS.length * 2);
});

test('every documented JSON route without a data type publishes its answer schema', () => {
  const untyped = keyless.routes.filter((r) => r.url.startsWith('/api/v1') && !r.doc.hidden && !r.doc.contentType && !r.doc.data && !r.doc.answer);
  assert.deepEqual(
    untyped.map((r) => r.url),
    [],
  );
});
