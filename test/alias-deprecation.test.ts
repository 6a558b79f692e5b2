import { at } from './helpers/json.ts';
import { must } from './helpers/must.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestResponse } from './helpers/app.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { DEPRECATED_SINCE } from '../src/http/deprecation.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { examplePath, fillTemplate } from '../src/core/data-type.ts';
import { exampleForm } from '../src/core/forms.ts';

const ctx = useFakeApp(registerAllFixtures);
const { fake } = ctx;

function assertDeprecated(r: TestResponse, successor: string) {
  assert.equal(r.headers.get('deprecation'), `@${DEPRECATED_SINCE}`, `status ${r.status}`);
  assert.equal(r.headers.get('link'), `<${successor}>; rel="successor-version"`, `status ${r.status}`);
}

const aliased = CATALOG.all.filter((dt) => dt.aliases?.length && dt.example.city);

test('every alias answer of every aliased type carries Deprecation and Link on 200', async () => {
  assert.ok(aliased.length >= 2);
  for (const dt of aliased) {
    for (const alias of dt.aliases ?? []) {
      const r = await ctx.app.get(fillTemplate(alias, { slug: dt.example.city!, city: dt.example.city! }));
      assert.equal(r.status, 200, alias);
      assertDeprecated(r, examplePath(dt).split('?', 1).join(''));
    }
  }
});

test('alias: an unknown city (404 problem) still carries Deprecation and Link', async () => {
  const r = await ctx.app.get('/api/v1/cities/atlantis/air');
  assert.equal(r.status, 404);
  assert.equal(at(r.json, 'code'), 'city_not_found');
  assertDeprecated(r, '/api/v1/live/atlantis/air');
});

test('alias: a tolerant spelling links to the canonical successor', async () => {
  const r = await ctx.app.get('/api/v1/cities/M%C3%BCnchen/air');
  assertDeprecated(r, '/api/v1/live/muenchen/air');
});

test('alias: a dead upstream (503 problem) still carries Deprecation and Link', async () => {
  const fresh = await startApp(fakeEnv(fake.url));
  try {
    fake.mode = 'down';
    // Types whose source answers `disabled` here (credentials missing) never reach the upstream.
    for (const dt of aliased.filter((d) => fresh.rt.sourceEnabled(exampleForm(d).source))) {
      const alias = must(dt.aliases?.[0], 'an alias');
      const r = await fresh.get(fillTemplate(alias, { slug: dt.example.city!, city: dt.example.city! }));
      assert.equal(r.status, 503, alias);
      assertDeprecated(r, examplePath(dt).split('?', 1).join(''));
    }
  } finally {
    fake.mode = 'normal';
    await fresh.close();
  }
});

test('alias: the successor path itself is not deprecated', async () => {
  const r = await ctx.app.get('/api/v1/live/atlantis/air');
  assert.equal(r.status, 404);
  assert.equal(r.headers.get('deprecation'), null);
  assert.equal(r.headers.get('link'), null);
});
