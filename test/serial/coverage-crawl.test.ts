import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from '../helpers/fake-upstream.ts';
import { fakeEnv } from '../helpers/app.ts';
import { startAppProcess, type AppProcess } from '../helpers/app-process.ts';
import { crawlPages } from '../helpers/crawl.ts';
import { fixtureSettings } from '../fixtures/index.ts';
import { CITIES } from '../../src/cities/register.ts';

/**
 * Pages render from what is cached and the breakers' state: a crawler following every link of
 * /coverage (each city's page, the topic views, the landing page, the docs) makes no upstream call,
 * and the service keeps nothing of it. The fake upstream serves nothing and counts every request
 * (every source is pointed at it, every credential set, so every type could fetch).
 */
let fake: FakeUpstream;
let service: AppProcess;
before(async () => {
  fake = await new FakeUpstream().start();
  service = await startAppProcess({ ...fakeEnv(fake.url), ...fixtureSettings() });
});
after(async () => {
  await service?.close();
  await fake?.stop();
});

test('crawling every page link from /coverage: no upstream request, RSS after GC within 50 MB of idle', async () => {
  // The data-type reference's first render builds every type's record schema, once per process (as the
  // first data request of each type would): idle is the service after that, so what is measured is what the crawl keeps.
  assert.equal((await fetch(`${service.url}/docs/data-types`)).status, 200);
  const idle = await service.memory();
  const crawl = await crawlPages(service.url, '/coverage');
  const after = await service.memory();
  const paths = crawl.pages.map((p) => p.path);
  for (const c of CITIES) assert.ok(paths.includes(`/coverage/${c.slug}`), `/coverage/${c.slug} was crawled`);
  for (const p of ['/', '/docs', '/docs/data-types', '/coverage?topic=environment']) assert.ok(paths.includes(p), `${p} was crawled`);
  assert.deepEqual(
    crawl.pages.filter((p) => p.status !== 200),
    [],
  );
  assert.equal(fake.count(), 0, `upstream requests: ${[...fake.hits.keys()].slice(0, 5).join(', ')}`);
  const grew = after.rssMb - idle.rssMb;
  assert.ok(grew < 50, `RSS after GC grew by ${grew.toFixed(1)} MB over ${crawl.pages.length} pages`);
});
