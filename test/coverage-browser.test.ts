import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { CITIES } from '../src/cities/register.ts';
import { at, num } from './helpers/json.ts';

/** Debian's chromium, driven by puppeteer-core (which downloads no browser of its own). */
const CHROMIUM = '/usr/bin/chromium';
const SKIP = existsSync(CHROMIUM) ? false : `${CHROMIUM} not installed: coverage browser test skipped (apt-get install chromium; .ci/run installs it)`;
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let fake: FakeUpstream;
let app: TestApp;
before(async () => {
  if (SKIP) return;
  fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  // No credentials: the matrix shows disabled cells next to available and not-covered ones.
  app = await startApp(fakeEnv(fake.url));
});
after(async () => {
  await app?.close();
  await fake?.stop();
});

test(
  'coverage matrix renders in headless Chromium with the right counts, sorts, filters, and links to per-city pages',
  { skip: SKIP, timeout: 120_000 },
  async () => {
    const { launch } = await import('puppeteer-core');
    const browser = await launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1600, height: 1000 });
      const res = await page.goto(`${app.url}/coverage`, { waitUntil: 'load' });
      assert.equal(res?.status(), 200);
      const api = (await app.get('/api/v1/coverage')).json;
      const perCity = num(api, 'meta.data_types');

      // Page code is passed as text: the test compiles without DOM typings.
      const js = <T>(expr: string) => page.evaluate(expr) as Promise<T>;
      const count = (sel: string) => js<number>(`document.querySelectorAll(${JSON.stringify(sel)}).length`);
      const counts = {
        rows: await count('#matrix tbody tr'),
        typeColumns: await count('#matrix thead th.type'),
        cells: await count('#matrix td.cell'),
        available: await count('#matrix td.cell.available'),
        disabled: await count('#matrix td.cell.disabled'),
        notCovered: await count('#matrix td.cell.not_covered'),
        shown: await js<string>("document.getElementById('shown').textContent"),
      };
      assert.equal(counts.rows, CITIES.length);
      assert.equal(counts.typeColumns, perCity);
      assert.equal(counts.cells, CITIES.length * perCity);
      assert.equal(counts.available, num(api, 'meta.cells.available'));
      assert.equal(counts.disabled, num(api, 'meta.cells.disabled'));
      assert.equal(counts.notCovered, num(api, 'meta.cells.not_covered'));
      assert.ok(counts.disabled > 0, 'keyless: sources needing credentials show as disabled');
      assert.equal(counts.shown, String(CITIES.length));

      const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-coverage-'));
      const shot = join(dir, 'coverage.png');
      await page.screenshot({ path: shot, fullPage: false });
      const png = readFileSync(shot);
      assert.equal(png.subarray(1, 4).toString(), 'PNG');
      assert.ok(png.length > 10_000, `screenshot of ${png.length} bytes`);

      // Sort by population (descending on the second click): Berlin first, then last.
      const firstCity = () => js<string>("document.querySelector('#matrix tbody tr').dataset.slug");
      await page.click('th[data-sort="population"]');
      assert.equal(await firstCity(), CITIES.reduce((a, b) => (a.population < b.population ? a : b)).slug);
      await page.click('th[data-sort="population"]');
      assert.equal(await firstCity(), 'berlin');

      // Filter by city and by topic.
      await page.type('#q', 'koeln');
      const visible = await js<string[]>("[...document.querySelectorAll('#matrix tbody tr')].filter((r) => !r.hidden).map((r) => r.dataset.slug)");
      assert.deepEqual(visible, ['koeln']);
      assert.equal(await js<string>("document.getElementById('shown').textContent"), '1');
      await js(
        `(() => { const g = document.getElementById('group'); g.value = ${JSON.stringify(String(at(api, 'data.0.group')))}; g.dispatchEvent(new Event('change')); })()`,
      );
      const shownColumns = await js<number>("[...document.querySelectorAll('#matrix thead th.type')].filter((c) => !c.hidden).length");
      const firstGroup = String(at(api, 'data.0.group'));
      const inGroup = (api as { data: { group: string }[] }).data.filter((t) => t.group === firstGroup).length;
      assert.equal(shownColumns, inGroup);

      // The city link leads to the per-city page with every data type and its current status.
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
      assert.ok(city.filter((c) => c.status === 'ok').length >= 3, JSON.stringify(city));
    } finally {
      await browser.close();
    }
  },
);
