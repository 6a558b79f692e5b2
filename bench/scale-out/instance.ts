/**
 * One instance of the scale-out cluster (cluster.ts), in a process of its own: src/server.ts's start (settings from
 * the environment, listen, SIGTERM drains) on a catalog whose parking answers stay fresh for SCALE_OUT_FRESH_MS
 * only, so the stream of Dresden's parking changes as often as the fake upstream does (the real window is minutes).
 * Everything else is the shipped catalog and the shipped stores: Redis (cache, locks, fan-out, rate limit) and
 * PostgreSQL (history), named by REDIS_URL and DATABASE_URL.
 */
import { buildApp } from '../../src/app.ts';
import { buildCatalog, CATALOG } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/core/config.ts';

const freshSeconds = Number(process.env.SCALE_OUT_FRESH_MS ?? 200) / 1000;
const catalog = buildCatalog(CATALOG.all.map((dt) => (dt.type === 'parking' && dt.cache !== 'stored' ? { ...dt, cache: { ...dt.cache, freshSeconds } } : dt)));
const config = loadConfig(process.env, CATALOG.sources);
const built = await buildApp(config, { catalog });
await built.app.listen({ host: config.host, port: config.port });
process.send?.('listening');
const stop = () => void built.close().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// The harness died without stopping this instance (its IPC channel closed): end with it, leaving nothing behind.
process.once('disconnect', stop);
