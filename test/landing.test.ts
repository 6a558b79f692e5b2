import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { at, list, str } from './helpers/json.ts';

const ctx = useFakeApp(registerAllFixtures);

test('GET / is a self-contained HTML landing page with working examples, docs links, MCP snippets and health', async () => {
  const res = await ctx.app.get('/');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  const html = res.text;
  for (const href of ['/docs', '/coverage', '/api/v1/openapi.json', '/api/v1/health']) assert.ok(html.includes(`href="${href}"`), href);
  assert.ok(html.includes('bin/stadtdaten-mcp.js'), 'stdio snippet');
  assert.ok(html.includes(`${ctx.app.url}/mcp`), 'HTTP snippet names the address the request came in on');
  assert.match(html, /data-status="ok"/);
  // No external assets: nothing is loaded from another host.
  assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//);
  assert.doesNotMatch(html, /Demo mode/);
  const list = html.split('<ul id="examples">')[1]?.split('</ul>')[0] ?? '';
  const examples = [...list.matchAll(/<a href="([^"]+)">/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  assert.equal(examples.length, 3, examples.join(' '));
  for (const path of examples) {
    const r = await ctx.app.get(path);
    assert.equal(r.status, 200, path);
    assert.equal(at(r.json, 'meta.source_status'), 'ok', path);
  }
});

test('GET /api/v1 is a JSON index whose links and examples resolve', async () => {
  const res = await ctx.app.get('/api/v1');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(str(res.json, 'data.links.openapi_json'), '/api/v1/openapi.json');
  const types = list<{ type: string; example: string }>(res.json, 'data.data_types');
  assert.equal(types.length, ctx.app.rt.catalog.all.length);
  for (const key of ['cities', 'coverage', 'sources', 'health', 'problems', 'openapi_yaml']) {
    const r = await ctx.app.get(str(res.json, `data.links.${key}`));
    assert.equal(r.status, 200, key);
  }
  assert.equal(list(res.json, 'data.examples').length, 3);
});
