import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'puppeteer-core';
import { startDemo, type Demo } from '../scripts/demo.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import type { DataType } from '../src/core/data-type.ts';
import { CITIES } from '../src/cities/register.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { replayAsCurrent, DRESDEN_V1 } from './fixtures/city-parking/routes.ts';
import { chromiumMissing, launchChromium } from './helpers/chromium.ts';
import { get } from './helpers/app.ts';

const SKIP = chromiumMissing('explorer browser test');
const require = createRequire(import.meta.url);

/** Parking with a short fresh window, so the stream's poller sees the changed upstream within the test. */
const parking = CATALOG.byType.get('parking')!;
const quickParking: DataType = { ...parking, cache: { freshSeconds: 0.05, staleSeconds: 600 } };

/** Screenshots go to a temporary folder (never the checkout); the run prints where. */
const SHOTS = join(tmpdir(), 'stadtdaten-explorer-shots');

let demo: Demo;
let browser: Browser;
before(async () => {
  if (SKIP) return;
  demo = await startDemo({
    host: '127.0.0.1',
    port: 0,
    quiet: true,
    env: { STREAM_POLL_MS: '50', MAP_TILES_URL: '' },
    catalog: buildCatalog(CATALOG.all.map((dt) => (dt.type === 'parking' ? quickParking : dt))),
  });
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await demo?.close();
});

const js = <T>(page: Page, expr: string) => page.evaluate(expr) as Promise<T>;

/** A page on the demo that records every request leaving the origin and every console error. */
async function open(path: string, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  const outside: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(demo.url) && !r.url().startsWith('data:')) outside.push(r.url());
  });
  // Every console error counts, a failed load of the API's own answers included: the demo answers no_data, not 503.
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url ?? ''})`);
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  const res = await page.goto(demo.url + path, { waitUntil: 'load' });
  return { page, res, outside, errors };
}

/** Waits until every layer, chart section and the boundary settled (nothing idle or loading). */
async function settled(page: Page) {
  await page.waitForFunction(
    `document.querySelectorAll('.sd-legend-list li').length > 0 &&
     ![...document.querySelectorAll('.sd-legend-list li')].some((li) => li.dataset.state === 'idle' || li.dataset.state === 'loading') &&
     document.querySelector('.sd-boundary') !== null &&
     ![...document.querySelectorAll('.ex-type')].some((s) => s.dataset.loading === 'true' || !s.dataset.url)`,
    { timeout: 20_000 },
  );
}

test(
  'explorer over HTTP: picker, tolerant slugs, did-you-mean 404, hashed immutable assets within 400 KB gzip, CSP, overview links',
  { skip: SKIP },
  async () => {
    const picker = await get(`${demo.url}/explore`);
    assert.equal(picker.status, 200);
    assert.equal([...picker.text.matchAll(/<a href="\/explore\/[a-z-]+">/g)].length, CITIES.length);
    const redirected = await fetch(`${demo.url}/explore?city=K%C3%B6ln`, { redirect: 'manual' });
    assert.equal(redirected.status, 303);
    assert.equal(redirected.headers.get('location'), '/explore/koeln');

    const page = await get(`${demo.url}/explore/K%C3%B6ln`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<link rel="canonical" href="\/explore\/koeln">/);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /img-src 'self' data:;/, 'no tile origin without MAP_TILES_URL');
    // No inline script: only the model as JSON data and the bundle from this origin.
    assert.deepEqual([...page.text.matchAll(/<script(?![^>]*(type="application\/json"|src="\/explore\/assets\/))/g)].length, 0);

    const unknown = await get(`${demo.url}/explore/koelm`);
    assert.equal(unknown.status, 404);
    assert.equal((unknown.json as { code: string }).code, 'city_not_found');
    assert.match((unknown.json as { hint: string }).hint, /koeln/);

    const assets = [...page.text.matchAll(/(?:href|src)="(\/explore\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.equal(assets.length, 2);
    let gzip = 0;
    for (const a of assets) {
      assert.match(a, /-[A-Z0-9]{8}\.(js|css)$/, 'content-hashed name');
      const res = await fetch(demo.url + a);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('cache-control') ?? '', /immutable/);
      gzip += gzipSync(Buffer.from(await res.arrayBuffer())).length;
    }
    assert.ok(gzip <= 400 * 1024, `explorer JS+CSS is ${gzip} bytes gzip`);
    const missing = await get(`${demo.url}/explore/assets/nope.js`);
    assert.equal(missing.status, 404);
    assert.equal((missing.json as { code: string }).code, 'route_not_found');

    const overview = await get(`${demo.url}/api/v1/cities/koeln/overview`);
    assert.equal((overview.json as { data: { links: { explorer: string } } }).data.links.explorer, '/explore/koeln');
    assert.match((await get(`${demo.url}/`)).text, /href="\/explore"/);
    assert.match((await get(`${demo.url}/coverage`)).text, /href="\/explore\/koeln"/);
    assert.match((await get(`${demo.url}/docs/data-types`)).text, /href="\/explore"/);
  },
);

for (const city of ['koeln', 'muenchen', 'freiburg-im-breisgau']) {
  test(
    `explorer of ${city} in Chromium at 1280x900 and 390x844: canvas drawn, legend counts = GeoJSON answers, greyed layers with reasons, charts = history answers, nothing from elsewhere`,
    { skip: SKIP, timeout: 60_000 },
    async () => {
      // What the page's value requests record (a first answer starts a series, a backfill may follow) is recorded before it looks.
      const html = (await get(`${demo.url}/explore/${city}`)).text;
      const pageModel = JSON.parse(/<script type="application\/json" id="explorer-model">(.*?)<\/script>/s.exec(html)![1]!) as { values: { path: string }[] };
      for (const v of pageModel.values) await get(demo.url + v.path);
      await demo.built.history?.settled();
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const { page, res, outside, errors } = await open(`/explore/${city}`, viewport);
        try {
          assert.equal(res?.status(), 200);
          await settled(page);
          await page.screenshot({ path: join(SHOTS, `${city}-${viewport.width}.png`) });

          const rows = await js<{ layer: string; state: string; count: string | null; status: string }[]>(
            page,
            `[...document.querySelectorAll('.sd-legend-list li')].map((li) => ({ layer: li.dataset.layer, state: li.dataset.state, count: li.dataset.count ?? null, status: li.querySelector('.sd-status').textContent }))`,
          );
          const model = JSON.parse(await js<string>(page, `document.getElementById('explorer-model').textContent`)) as {
            layers: { type: string; path: string }[];
          };
          if (viewport.width === 1280) {
            for (const row of rows) {
              const layer = model.layers.find((l) => l.type === row.layer)!;
              if (row.state === 'not_covered' || row.state === 'disabled') {
                assert.ok(row.status.length > row.state.length, `${row.layer} greyed with its reason`);
                continue;
              }
              const answer = await get(demo.url + layer.path);
              if (row.state === 'error') {
                assert.ok(answer.status >= 400, `${row.layer}: an error row is an error answer`);
                continue;
              }
              const features = (answer.json as { features: unknown[] }).features.length;
              assert.equal(Number(row.count), features, `${city} ${row.layer}: legend count = GeoJSON features`);
              if (row.state === 'no_data') assert.ok(row.status.startsWith('no data'), row.status);
            }
          }
          const drawn = rows.filter((r) => r.state === 'ok' && Number(r.count) > 0);
          assert.ok(drawn.length > 0, `${city} draws at least one layer`);
          // The canvas has pixels (the features; no basemap is configured).
          const painted = await js<number>(
            page,
            `(() => { const c = document.querySelector('.sd-map canvas'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; })()`,
          );
          assert.ok(painted > 20, `${city}: map canvas has ${painted} painted pixels`);

          const sections = await js<{ url: string; charts: { field: string; points: number }[] }[]>(
            page,
            `[...document.querySelectorAll('.ex-type')].map((s) => ({ url: s.dataset.url, charts: [...s.querySelectorAll('.sd-chart')].map((f) => ({ field: f.dataset.field, points: Number(f.dataset.points) })) }))`,
          );
          if (viewport.width === 1280) {
            for (const s of sections) {
              const answer = (await get(demo.url + s.url)).json as { data: { field: string }[] };
              for (const c of s.charts) assert.equal(c.points, answer.data.filter((r) => r.field === c.field).length, `${s.url} ${c.field}`);
            }
          }
          if (city === 'muenchen')
            assert.equal(await js<string>(page, `document.querySelector('.sd-boundary').dataset.state`), 'ok', 'München has its boundary');
          const width = await js<number>(page, 'document.documentElement.scrollWidth');
          assert.ok(width <= viewport.width, `no horizontal scrolling at ${viewport.width}: ${width}`);
          assert.deepEqual(outside, [], 'no request leaves the origin without MAP_TILES_URL');
          assert.deepEqual(errors, []);
        } finally {
          await page.close();
        }
      }
    },
  );
}

test(
  'explorer of koeln: axe-core finds nothing serious or critical; layers and ranges by keyboard; the state is in the address',
  { skip: SKIP, timeout: 60_000 },
  async () => {
    const { page, errors } = await open('/explore/koeln');
    try {
      await settled(page);
      // Through the DevTools protocol, which the page's CSP does not govern.
      await page.evaluate((require('axe-core') as { source: string }).source);
      const violations = await js<{ id: string; impact: string; nodes: unknown[] }[]>(
        page,
        `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target) })))`,
      );
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad, [], JSON.stringify(bad).slice(0, 2000));

      // A layer with items: switched off and on by keyboard (Space on its checkbox), the address follows.
      const layer = await js<string>(page, `[...document.querySelectorAll('.sd-legend-list li')].find((li) => li.dataset.state === 'ok').dataset.layer`);
      await page.focus(`#sd-layer-${layer}`);
      await page.keyboard.press('Space');
      assert.equal(await js<boolean>(page, `document.getElementById('sd-layer-${layer}').checked`), false);
      assert.ok(!new URL(page.url()).searchParams.get('layers')!.split(',').includes(layer));
      // A range by keyboard: Tab to the 30 d button, Enter.
      await page.focus('.ex-ranges button[data-range="7d"]');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForFunction(`document.querySelector('.ex-ranges button[data-range="30d"]').getAttribute('aria-pressed') === 'true'`);
      await settled(page);
      assert.equal(new URL(page.url()).searchParams.get('range'), '30d');
      const bucketUrl = await js<string>(page, `document.querySelector('.ex-type[data-type="water-level"]').dataset.url`);
      assert.match(bucketUrl, /every=1h/);

      // The request builder: a type and format give URL, curl, fetch, Python and the MCP call; Send previews the answer.
      await page.select('#b-type', 'water-level');
      await page.select('#b-format', 'geojson');
      const snippets = await js<Record<string, string>>(
        page,
        `Object.fromEntries([...document.querySelectorAll('[data-snippet]')].map((p) => [p.dataset.snippet, p.textContent]))`,
      );
      assert.equal(snippets['REST URL'], `${demo.url}/api/v1/live/koeln/water-level?format=geojson`);
      assert.match(snippets.curl!, /^curl -s '.*water-level\?format=geojson'$/);
      assert.match(snippets['Python requests']!, /requests\.get\(".*\/water-level", params=\{"format": "geojson"\}/);
      assert.deepEqual(JSON.parse(snippets['MCP tool call']!), {
        method: 'tools/call',
        params: { name: 'environment', arguments: { city: 'koeln', data_type: 'water-level' } },
      });
      assert.equal(new URL(page.url()).searchParams.get('b.type'), 'water-level');
      await page.click('#builder button[type="submit"]');
      await page.waitForFunction(`document.getElementById('preview').textContent.startsWith('HTTP 200')`);
      assert.deepEqual(errors, []);

      // The same address in a fresh page shows the same view.
      const shared = page.url();
      // This page closed first: its streams hold connections of the browser's six per origin.
      await page.close();
      const again = await open(new URL(shared).pathname + new URL(shared).search);
      try {
        await settled(again.page);
        assert.equal(await js<boolean>(again.page, `document.getElementById('sd-layer-${layer}').checked`), false);
        assert.equal(await js<string>(again.page, `document.querySelector('.ex-ranges button[data-range="30d"]').getAttribute('aria-pressed')`), 'true');
        assert.deepEqual(again.errors, []);
      } finally {
        await again.page.close();
      }
    } finally {
      if (!page.isClosed()) await page.close();
    }
  },
);

test(
  'explorer of dresden: a change of the fake upstream reaches the current values panel within 2 s (Server-Sent Events)',
  { skip: SKIP, timeout: 60_000 },
  async () => {
    // A cached ok answer makes parking one of the streamed cards.
    assert.equal((await get(`${demo.url}/api/v1/cities/dresden/parking`)).status, 200);
    const { page, errors } = await open('/explore/dresden');
    try {
      const card = `document.querySelector('.sd-value-card[data-type="parking"]')`;
      await page.waitForFunction(`${card} && ${card}.dataset.status === 'ok'`, { timeout: 20_000 });
      const before = await js<string>(page, `${card}.querySelector('.sd-values-body').textContent`);
      const body = replayAsCurrent(fixture(DRESDEN_V1).toString('utf8')).replace(/"free": \d+/g, '"free": 7');
      demo.fake.get('/Dresden', () => ({ body, headers: { 'content-type': 'application/json' } }));
      const changed = Date.now();
      await page.waitForFunction(`${card}.querySelector('.sd-values-body').textContent.includes('7 spaces')`, { timeout: 2_000 });
      assert.ok(Date.now() - changed <= 2_000);
      assert.notEqual(await js<string>(page, `${card}.querySelector('.sd-values-body').textContent`), before);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  },
);
