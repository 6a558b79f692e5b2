/**
 * A service for memory measurements, run as a child process (test/helpers/memory-server.ts starts it
 * with --expose-gc): the app on the fake upstream serving every fixture, jobs and the rate limit off,
 * stores in memory. It tells its parent its URL over IPC and answers each `measure` message with its
 * own memory after forced collections, so the figures are the server's, not the client's.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { CATALOG } from '../../src/catalog/index.ts';
import { SqliteStore } from '../../src/store/sqlite.ts';
import { FakeUpstream } from './fake-upstream.ts';
import { fixtureSettings, registerAllFixtures } from '../fixtures/index.ts';
import { fakeEnv } from './app.ts';

export interface MemorySample {
  rss: number;
  heapUsed: number;
  external: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !process.send) throw new Error('run by test/helpers/memory-server.ts (node --expose-gc, with an IPC channel)');

const fake = await new FakeUpstream().start();
registerAllFixtures(fake);
const config = loadConfig(
  {
    ...fakeEnv(fake.url),
    ...fixtureSettings(),
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    RATE_LIMIT_ENABLED: 'false',
    HISTORY_PATH: ':memory:',
    ...(JSON.parse(process.env.MEMORY_SERVER_ENV ?? '{}') as Record<string, string>),
  },
  CATALOG.sources,
);
const built = await buildApp(config, { store: new SqliteStore(':memory:'), logger: false });
await built.app.listen({ host: '127.0.0.1', port: 0 });

/** Several full collections with turns of the event loop between them, so weak references and finalizers settle. */
async function settled(): Promise<MemorySample> {
  for (let i = 0; i < 4; i++) {
    gc!();
    await new Promise((r) => setTimeout(r, 20));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
}

process.on('message', (msg: { id: number; ask: string }) => {
  if (msg.ask === 'measure') void settled().then((sample) => process.send!({ id: msg.id, sample }));
  else if (msg.ask === 'stop')
    void Promise.all([built.close(), fake.stop()]).finally(() => {
      process.disconnect();
      process.exit(0);
    });
});
process.send({ url: `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}` });
