/**
 * Coverage crawl: a crawler following every page link from /coverage (each city's page, the topic
 * views, the landing page, the docs) against a service whose upstreams are all down (every source
 * pointed at a fake upstream that resets each connection and counts it, every credential set). Pages
 * render from the cache and the breakers' state: no upstream request, and nothing kept.
 */
import { FakeUpstream } from '../../../test/helpers/fake-upstream.ts';
import { fakeEnv } from '../../../test/helpers/app.ts';
import { startAppProcess } from '../../../test/helpers/app-process.ts';
import { crawlPages } from '../../../test/helpers/crawl.ts';
import { fixtureSettings } from '../../../test/fixtures/index.ts';
import type { AttackRow, Probe } from '../row.ts';

const RSS_BAR_MB = 50;

export const probe: Probe = async () => {
  const fake = await new FakeUpstream().start();
  fake.mode = 'down';
  const service = await startAppProcess({ ...fakeEnv(fake.url), ...fixtureSettings() });
  try {
    // The reference's first render builds every record schema once per process, as a first data request would.
    await (await fetch(`${service.url}/docs/data-types`)).text();
    const idle = await service.memory();
    const started = performance.now();
    const crawl = await crawlPages(service.url, '/coverage');
    const ms = performance.now() - started;
    const after = await service.memory();
    const grew = after.rssMb - idle.rssMb;
    const failed = crawl.pages.filter((p) => p.status !== 200).length;
    const row = (measure: string, value: string, verdict: string): AttackRow => ({ probe: 'coverage-crawl', measure, value, verdict });
    return [
      row('pages crawled (not 200)', `${crawl.pages.length} (${failed})`, failed === 0 ? 'all 200: held' : 'FAILED'),
      row('upstream requests', String(fake.count()), fake.count() === 0 ? '0: held' : 'FAILED'),
      row('crawl time, per page', `${(ms / 1000).toFixed(1)} s, ${(ms / crawl.pages.length).toFixed(0)} ms`, 'reported'),
      row('RSS after GC, growth', `${grew.toFixed(1)} MB`, grew <= RSS_BAR_MB ? `≤ ${RSS_BAR_MB} MB: held` : 'FAILED'),
      row('heap after GC, growth', `${(after.heapMb - idle.heapMb).toFixed(1)} MB`, 'reported'),
    ];
  } finally {
    await service.close();
    await fake.stop();
  }
};
