import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { replayAsCurrent, register as registerCityParking, DRESDEN_V1 } from './fixtures/city-parking/routes.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import type { DataType } from '../src/core/data-type.ts';
import { chromiumMissing, launchChromium } from './helpers/chromium.ts';

const SKIP = chromiumMissing('EventSource browser test');

/** Parking with a short fresh window, so the poller sees the changed upstream within the test. */
const parking = CATALOG.byType.get('parking')!;
const quickParking: DataType = { ...parking, cache: { freshSeconds: 0.05, staleSeconds: 600 } };

let app: TestApp | undefined;
const fake = useFakeUpstream(registerCityParking, {
  started: async () => {
    if (!SKIP) app = await startApp({ ...fakeEnv(fake.url), STREAM_POLL_MS: '50' }, { catalog: buildCatalog([quickParking]) });
  },
  stopping: async () => {
    await app?.close();
  },
});

test(
  'a real EventSource in headless Chromium: the landing page example, the first event at once and the change event',
  { skip: SKIP, timeout: 120_000 },
  async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const res = await page.goto(`${app!.url}/`, { waitUntil: 'load' });
      assert.equal(res?.status(), 200);
      // Page code is passed as text: the test compiles without DOM typings.
      const js = <T>(expr: string) => page.evaluate(expr) as Promise<T>;
      await page.click('#live-start');
      await page.waitForFunction(`document.querySelectorAll('#live-events li').length >= 1`);
      assert.match(await js<string>(`document.querySelector('#live-events li').textContent`), /event \d+-\d+: parking ok, \d+ items/);
      assert.equal(await js<number>('window.liveSource.readyState'), 1, 'open, not reconnecting');

      await js(`(() => {
      window.got = [];
      const source = new EventSource('/api/v1/cities/dresden/parking');
      source.onmessage = (e) => window.got.push({ id: e.lastEventId, free: JSON.parse(e.data).data.find((s) => s.name === 'Altmarkt-Galerie').free_spaces });
    })()`);
      await page.waitForFunction('window.got.length >= 1');
      assert.equal(await js<number>('window.got[0].free'), 212);
      const body = replayAsCurrent(fixture(DRESDEN_V1).toString('utf8')).replace('"free": 212', '"free": 7');
      fake.get('/Dresden', () => ({ body, headers: { 'content-type': 'application/json' } }));
      await page.waitForFunction('window.got.length >= 2');
      const got = await js<{ id: string; free: number }[]>('window.got');
      assert.equal(got[1]?.free, 7);
      assert.notEqual(got[1]?.id, got[0]?.id);
    } finally {
      await browser.close();
    }
  },
);
