/**
 * The explorer's largest contentful paint on the demo in headless Chromium (issue 41: ≤ 1.5 s).
 * One demo, one browser; the first load builds the bundle (esbuild, once per process) and is
 * reported apart; then BENCH_RUNS loads per city in a fresh page each (cold browser cache: the
 * hashed bundle is fetched again), LCP read from the page's own PerformanceObserver.
 *   node bench/explorer.ts
 */
import { startDemo } from '../scripts/demo.ts';
import { launchChromium } from '../test/helpers/chromium.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CITIES = (process.env.BENCH_CITIES ?? 'koeln,muenchen,freiburg-im-breisgau').split(',');

const demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true, env: { MAP_TILES_URL: '' } });
const browser = await launchChromium();

async function lcp(path: string): Promise<number> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.evaluateOnNewDocument(
    `window.__lcp = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });`,
  );
  await page.goto(demo.url + path, { waitUntil: 'load' });
  await new Promise((r) => setTimeout(r, 500));
  const ms = (await page.evaluate('window.__lcp')) as number;
  await context.close();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  console.log(`first load (builds the bundle): ${(await lcp(`/explore/${CITIES[0]}`)).toFixed(0)} ms LCP`);
  for (const city of CITIES) {
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await lcp(`/explore/${city}`));
    console.log(
      `/explore/${city}: LCP median ${median(runs).toFixed(0)} ms, max ${Math.max(...runs).toFixed(0)} ms (${RUNS} loads, fresh browser context each)`,
    );
  }
} finally {
  await browser.close();
  await demo.close();
}
