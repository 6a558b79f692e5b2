/**
 * `npm run demo`: the service without internet. A fake upstream on loopback serves every
 * recorded/real-format fixture at the upstreams' real paths, each for its own place only (any
 * other city answers no_data, and meta.note names the city the demo has a recording of); the jobs
 * run once against it (the GTFS-Realtime poller keeps polling a feed on the schedule's clock), and
 * the service listens on HOST:PORT (default 127.0.0.1:3000) with every answer marked meta.demo.
 * `--mcp` serves the same demo as an MCP stdio server instead (`npm run demo:mcp`).
 */
import { createServer, type AddressInfo } from 'node:net';
import { buildApp, type App } from '../src/app.ts';
import { listenOrExit, loadAppConfig, loadDotEnv } from '../src/startup.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { refreshPois } from '../src/jobs/pois/refresh.ts';
import { POIS_PRECOMPUTE_JOB } from '../src/jobs/pois-precompute.ts';
import { PLACES_PRECOMPUTE_JOB } from '../src/jobs/places-precompute.ts';
import { refreshPlaces } from '../src/jobs/pois/places-refresh.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { FakeUpstream } from '../test/helpers/fake-upstream.ts';
import { fixtureSettings, registerAllFixtures } from '../test/fixtures/index.ts';
import { fakeEnv } from '../test/helpers/app.ts';
import { privateStores } from '../test/helpers/stores.ts';
import { examplePath } from '../src/core/data-type.ts';
import { runScheduled } from '../src/jobs/scheduler.ts';
import { gtfsRtPoller } from '../src/jobs/gtfs/rt-poller.ts';
import type { Catalog } from '../src/catalog/index.ts';
import { webBundle } from '../src/http/web-assets.ts';
import { EXPLORER_ENTRY } from '../src/services/explorer-html.ts';

export interface Demo {
  url: string;
  fake: FakeUpstream;
  built: App;
  close(): Promise<void>;
}

/** The city each precompute's Overpass fixtures model: POIs of Berlin, places of München (elsewhere the fixtures hold none). */
const DEMO_POI_CITY = 'berlin';
const DEMO_PLACES_CITY = 'muenchen';

export interface DemoOptions {
  host?: string;
  port?: number;
  quiet?: boolean;
  /** Build the app without listening (the MCP stdio demo). */
  listen?: boolean;
  /** Where progress lines go (stderr for the MCP stdio demo, whose stdout is the protocol). */
  out?: NodeJS.WritableStream;
  /**
   * Stores the caller created for this demo (a test's private PostgreSQL schema as DATABASE_URL): the demo never
   * takes a store from the environment or `.env`, where it would write fixture values into a deployment's.
   */
  stores?: { DATABASE_URL?: string; HISTORY_PATH?: string };
  /** Settings over the demo's (a test's quicker stream polls). */
  env?: Record<string, string>;
  /** Another catalog (a test's type with a shorter cache window). */
  catalog?: Catalog;
}

export async function startDemo(opts: DemoOptions = {}): Promise<Demo> {
  const fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  const env = {
    ...process.env,
    ...fakeEnv(fake.url),
    ...fixtureSettings(),
    DEMO: 'true',
    JOBS_ENABLED: 'false',
    // Offline: the explorer's map draws on a plain background and asks no tile server.
    MAP_TILES_URL: '',
    // The demo's stores live as long as the demo: its history (recorded from the fake upstreams, backfilled where they
    // offer it) in memory, no deployment's PostgreSQL or Redis, whatever the environment names.
    ...privateStores(),
    ...opts.stores,
    // The fixtures are recordings of past years: kept, not dropped by the refresh jobs' retention.
    HISTORY_RETENTION_DAYS: process.env.HISTORY_RETENTION_DAYS ?? '36500',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...opts.env,
  };
  const config = loadAppConfig(env);
  const out = opts.out ?? process.stdout;
  const built = await buildApp(config, { store: new SqliteStore(':memory:'), logger: !opts.quiet, logStream: out, catalog: opts.catalog });
  const log = (msg: string) => {
    if (!opts.quiet) out.write(`demo: ${msg}\n`);
  };
  const signal = new AbortController().signal;
  for (const job of built.rt.catalog.jobsFor(built.rt)) {
    if (job === POIS_PRECOMPUTE_JOB || !job.enabled(built.rt)) continue;
    if (job === PLACES_PRECOMPUTE_JOB) continue;
    try {
      await job.run(built.rt, log, signal);
      log(`${job.name} filled the store`);
    } catch (err) {
      log(`${job.name} failed: ${String(err)}`);
    }
  }
  // Each precompute for its fixtures' city only: elsewhere it would store counts of zero, which read as facts.
  await refreshPois(built.rt, [CITY_BY_SLUG.get(DEMO_POI_CITY)!], { pauseMs: 0, backoffMs: 10, maxRetries: 0 });
  await refreshPlaces(built.rt, [CITY_BY_SLUG.get(DEMO_PLACES_CITY)!], { pauseMs: 0, backoffMs: 10, maxRetries: 0 });
  // Live transit stays live: the poller keeps reading the fake feed, which is built around "now".
  const poller = runScheduled(built.rt, { ...gtfsRtPoller(config.gtfsRtPollIntervalS * 1000, 0), initialDelayMs: config.gtfsRtPollIntervalS * 1000 });
  // The history starts with each recordable type's example city (SMARD, PEGELONLINE and Bright Sky pasts are backfilled then) and keeps
  // recording those cities, each type at its own cadence.
  for (const dt of built.rt.catalog.all.filter((d) => d.history && d.example.city && !d.example.params)) {
    await built.pipeline.run(dt, CITY_BY_SLUG.get(dt.example.city!)!, {}, { noPaging: true }).catch(() => undefined);
  }
  await built.history?.settled();
  const recording = built.historyJobs.map((job) => runScheduled(built.rt, job));
  let url = '';
  if (opts.listen !== false) {
    const host = opts.host ?? config.host;
    await listenOrExit(built.app, host, opts.port ?? config.port, 'stadtdaten demo');
    url = `http://${host}:${(built.app.server.address() as AddressInfo).port}`;
    // `npm run demo`: the explorer's bundle is ready before its URL is printed (tests build it on their first page).
    if (!opts.quiet) await webBundle(EXPLORER_ENTRY);
  }
  return {
    url,
    fake,
    built,
    async close() {
      await poller.stop();
      await Promise.all(recording.map((r) => r.stop()));
      await built.close();
      await fake.stop();
    },
  };
}

/**
 * Per data type its declared example request (the city and ids its fixtures model, never
 * another city's data under a wrong name), with the status it answers.
 */
export async function probe(demo: Demo): Promise<{ type: string; path: string; status: string; http: number; demo: unknown; city: unknown }[]> {
  const out = [];
  for (const dt of demo.built.rt.catalog.all) {
    const path = examplePath(dt);
    const res = await fetch(demo.url + path);
    const body = (await res.json().catch(() => null)) as { meta?: { source_status?: string; demo?: unknown; city?: unknown } } | null;
    out.push({ type: dt.type, path, status: body?.meta?.source_status ?? 'unparseable', http: res.status, demo: body?.meta?.demo, city: body?.meta?.city });
  }
  return out;
}

/** The city the demo's explorer link opens: Köln, whose water level and flood recordings give it a chart at first contact. */
const EXPLORER_CITY = 'koeln';

/** The explorer of a city with recordings and one history of it (the first recorded type its recordings are of). */
export function demoLinks(demo: Demo): [string, string][] {
  const recorded = demo.built.rt.catalog.all.find((dt) => dt.history && dt.example.city === EXPLORER_CITY && !dt.example.params);
  return [
    [`/explore/${EXPLORER_CITY}`, 'explorer: map, current values, charts'],
    ...(recorded ? [[`/api/v1/cities/${EXPLORER_CITY}/${recorded.type}/history`, `history of ${recorded.type} (JSON; ?format=csv)`] as [string, string]] : []),
  ];
}

async function serveMcpStdio() {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { createMcpServer } = await import('../src/mcp/mcp-server.ts');
  const demo = await startDemo({ listen: false, quiet: true, out: process.stderr });
  const server = createMcpServer(demo.built);
  const stop = async () => {
    await server.close();
    await demo.close();
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await server.connect(new StdioServerTransport());
  process.stderr.write('stadtdaten demo: MCP stdio server ready (fixture data, meta.demo=true)\n');
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--mcp')) {
  loadDotEnv();
  await serveMcpStdio();
} else if (import.meta.url === `file://${process.argv[1]}`) {
  loadDotEnv();
  // Fail before the fixtures load when the port is taken: the same one line as at listen time.
  const config = loadAppConfig(process.env);
  const portCheck = createServer();
  await listenOrExit(
    { listen: (o) => new Promise<void>((ok, fail) => portCheck.once('error', fail).listen(o.port, o.host, () => ok())) },
    config.host,
    config.port,
    'stadtdaten demo',
  );
  await new Promise((r) => portCheck.close(r));
  const demo = await startDemo();
  console.log(`\nStadtdaten demo on ${demo.url} (fake upstreams on ${demo.fake.url}; answers carry meta.demo=true).`);
  console.log('Every data type, for the city its recordings are of (other cities answer no_data; transit and boards run on the current time):');
  for (const p of await probe(demo)) console.log(`  ${p.status.padEnd(9)} ${demo.url}${p.path}`);
  console.log(`\n  ${demo.url}/            landing page\n  ${demo.url}/coverage    coverage matrix\n  ${demo.url}/docs        API docs`);
  for (const [path, what] of demoLinks(demo)) console.log(`  ${demo.url}${path}  ${what}`);
  console.log('');
  const stop = async () => {
    await demo.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
