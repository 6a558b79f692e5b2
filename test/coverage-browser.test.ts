import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { CITIES } from '../src/cities/register.ts';
import { at, num } from './helpers/json.ts';
import { GROUP_LABELS } from '../src/core/data-type.ts';
import { chromiumMissing, launchChromium } from './helpers/chromium.ts';

const SKIP = chromiumMissing('coverage browser test');

let fake: FakeUpstream;
let app: TestApp;
before(async () => {
  if (SKIP) return;
  fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  // No credentials: the matrix shows disabled cells next to configured (untried, answering) and not-covered ones.
  app = await startApp(fakeEnv(fake.url));
});
after(async () => {
  await app?.close();
  await fake?.stop();
});

test('coverage page: the whole matrix in at most 300 KB of HTML, one topic by ?topic= without a script', async () => {
  const fakeUp = await new FakeUpstream().start();
  registerAllFixtures(fakeUp);
  const local = await startApp(fakeEnv(fakeUp.url));
  try {
    const page = await local.get('/coverage');
    assert.equal(page.status, 200);
    const bytes = Buffer.byteLength(page.text);
    assert.ok(bytes <= 300 * 1024, `/coverage is ${bytes} bytes`);
    const api = (await local.get('/api/v1/coverage')).json as { data: { type: string; group: string }[] };
    const first = api.data[0]!.group;
    const key = Object.entries(GROUP_LABELS).find(([, l]) => l === first)![0];
    const one = await local.get(`/coverage?topic=${key}`);
    const columns = [...one.text.matchAll(/<th class="t" /g)].length;
    assert.equal(columns, api.data.filter((t) => t.group === first).length);
    assert.match(one.text, new RegExp(`<a href="/coverage\\?topic=${key}" aria-current="page">`));
    // An unknown topic shows every column.
    assert.equal([...(await local.get('/coverage?topic=nope')).text.matchAll(/<th class="t" /g)].length, api.data.length);
  } finally {
    await local.close();
    await fakeUp.stop();
  }
});

test(
  'coverage matrix in headless Chromium at 1280x900: right counts, sticky header row and city column, sorts, filters, topics, city pages',
  { skip: SKIP, timeout: 120_000 },
  async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      const res = await page.goto(`${app.url}/coverage`, { waitUntil: 'load' });
      assert.equal(res?.status(), 200);
      const api = (await app.get('/api/v1/coverage')).json;
      const perCity = num(api, 'meta.data_types');

      // Page code is passed as text: the test compiles without DOM typings.
      const js = <T>(expr: string) => page.evaluate(expr) as Promise<T>;
      const count = (sel: string) => js<number>(`document.querySelectorAll(${JSON.stringify(sel)}).length`);
      const counts = {
        rows: await count('#matrix tbody tr'),
        typeColumns: await count('#matrix thead th.t'),
        cells: await count('#matrix td.a, #matrix td.u, #matrix td.o, #matrix td.n, #matrix td.d'),
        answering: await count('#matrix td.a'),
        untried: await count('#matrix td.u'),
        disabled: await count('#matrix td.d'),
        notCovered: await count('#matrix td.n'),
        shown: await js<string>("document.getElementById('shown').textContent"),
      };
      assert.equal(counts.rows, CITIES.length);
      assert.equal(counts.typeColumns, perCity);
      assert.equal(counts.cells, CITIES.length * perCity);
      assert.equal(counts.answering, num(api, 'meta.cells.answering'));
      assert.equal(counts.untried, num(api, 'meta.cells.untried'));
      assert.equal(num(api, 'meta.cells.configured'), counts.answering + counts.untried + num(api, 'meta.cells.failing'));
      assert.equal(counts.disabled, num(api, 'meta.cells.disabled'));
      assert.equal(counts.notCovered, num(api, 'meta.cells.not_covered'));
      assert.ok(counts.disabled > 0, 'keyless: sources needing credentials show as disabled');
      assert.equal(counts.shown, String(CITIES.length));

      // Scrolled down and right inside the matrix, the type header row and the city column stay in view.
      const edges = () =>
        js<{
          wrap: { top: number; left: number };
          type: { top: number; bottom: number };
          group: { top: number };
          city: { left: number; top: number };
          row: number;
        }>(`(() => {
          const r = (el) => el.getBoundingClientRect();
          const wrap = r(document.querySelector('.wrap'));
          const type = r(document.querySelector('#matrix thead th.t'));
          const group = r(document.querySelector('#matrix thead th.g'));
          const body = document.querySelector('#matrix tbody tr:nth-child(40)');
          return { wrap: { top: wrap.top, left: wrap.left }, type: { top: type.top, bottom: type.bottom }, group: { top: group.top },
            city: { left: r(body.querySelector('th')).left, top: r(body.querySelector('th')).top }, row: r(body.querySelector('td:last-child')).top };
        })()`);
      const before = await edges();
      await js("(() => { const w = document.querySelector('.wrap'); w.scrollTop = 600; w.scrollLeft = 900; })()");
      const after = await edges();
      assert.ok(after.row < before.row - 500, 'the rows scrolled');
      assert.ok(Math.abs(after.group.top - after.wrap.top) <= 2, `group header row sticks: ${JSON.stringify(after)}`);
      assert.ok(
        after.type.top >= after.group.top && Math.abs(after.type.top - before.type.top) <= 2,
        `type header row sticks: ${JSON.stringify({ before, after })}`,
      );
      assert.ok(Math.abs(after.city.left - after.wrap.left) <= 2, `city column sticks: ${JSON.stringify(after)}`);
      assert.ok(after.city.top >= after.type.bottom - 1, 'the header row covers the rows scrolled under it, not the other way round');
      const onTop = await js<string>(
        `(() => { const t = document.querySelector('#matrix thead th.t').getBoundingClientRect(); const el = document.elementFromPoint(700, t.top + t.height / 2); return el && el.closest('th') ? el.closest('th').className : String(el && el.tagName); })()`,
      );
      assert.equal(onTop, 't', 'a type header is what shows at its place');

      const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-coverage-'));
      const shot = join(dir, 'coverage.png');
      await page.screenshot({ path: shot, fullPage: false });
      const png = readFileSync(shot);
      assert.equal(png.subarray(1, 4).toString(), 'PNG');
      assert.ok(png.length > 10_000, `screenshot of ${png.length} bytes`);
      assert.equal(png.readUInt32BE(16), 1280);
      assert.equal(png.readUInt32BE(20), 900);
      await js("(() => { const w = document.querySelector('.wrap'); w.scrollTop = 0; w.scrollLeft = 0; })()");

      // Sort by population (descending on the second click): Berlin first, then last.
      const firstCity = () => js<string>("document.querySelector('#matrix tbody tr').dataset.slug");
      await page.click('th[data-sort="population"]');
      assert.equal(await firstCity(), CITIES.reduce((a, b) => (a.population < b.population ? a : b)).slug);
      await page.click('th[data-sort="population"]');
      assert.equal(await firstCity(), 'berlin');

      // Filter by city.
      await page.type('#q', 'koeln');
      const visible = await js<string[]>("[...document.querySelectorAll('#matrix tbody tr')].filter((r) => !r.hidden).map((r) => r.dataset.slug)");
      assert.deepEqual(visible, ['koeln']);
      assert.equal(await js<string>("document.getElementById('shown').textContent"), '1');

      // Switch the topic: the select reloads the page with that topic's columns only.
      const firstGroup = String(at(api, 'data.0.group'));
      const key = Object.entries(GROUP_LABELS).find(([, l]) => l === firstGroup)![0];
      await Promise.all([page.waitForNavigation(), page.select('#topic', key)]);
      assert.ok(page.url().endsWith(`/coverage?topic=${key}`), page.url());
      const inGroup = (api as { data: { group: string }[] }).data.filter((t) => t.group === firstGroup).length;
      assert.equal(await count('#matrix thead th.t'), inGroup);
      assert.equal(
        await count('#matrix tbody tr td.a, #matrix tbody tr td.u, #matrix tbody tr td.n, #matrix tbody tr td.d, #matrix tbody tr td.o'),
        inGroup * CITIES.length,
      );

      // Without JavaScript the topic links still switch.
      await page.setJavaScriptEnabled(false);
      await page.goto(`${app.url}/coverage`, { waitUntil: 'load' });
      await Promise.all([page.waitForNavigation(), page.click(`#topics a[href="/coverage?topic=${key}"]`)]);
      assert.equal(await count('#matrix thead th.t'), inGroup);
      await page.setJavaScriptEnabled(true);

      // The city link leads to the per-city page with every data type and its current status.
      await page.goto(`${app.url}/coverage`, { waitUntil: 'load' });
      await Promise.all([page.waitForNavigation(), page.click('#matrix tbody tr[data-slug="koeln"] a')]);
      assert.ok(page.url().endsWith('/coverage/koeln'), page.url());
      const city = await js<{ status?: string; href?: string }[]>(
        "[...document.querySelectorAll('#city tbody tr')].map((r) => ({ status: r.dataset.status, href: r.querySelector('a')?.getAttribute('href') }))",
      );
      assert.equal(city.length, perCity);
      for (const c of city) {
        assert.ok(['ok', 'no_data', 'disabled', 'not_covered', 'not_checked', 'error'].includes(c.status ?? ''), c.status);
        assert.ok(c.href?.startsWith('/api/v1/'), c.href ?? '');
      }
      // The page fetches nothing: it shows as answering what was asked before. Ask some, then reload.
      for (const c of city.filter((x) => x.status === 'not_checked')) await (await fetch(app.url + c.href!)).arrayBuffer();
      await page.reload({ waitUntil: 'load' });
      const asked = await js<{ status?: string }[]>("[...document.querySelectorAll('#city tbody tr')].map((r) => ({ status: r.dataset.status }))");
      assert.ok(asked.filter((c) => c.status === 'ok').length >= 3, JSON.stringify(asked));
      console.log(`coverage screenshot: ${shot}`);
    } finally {
      await browser.close();
    }
  },
);
