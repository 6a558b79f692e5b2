/**
 * The server of bench/streams.ts: Stadtdaten as src/server.ts builds it (its env, jobs off), with a
 * catalog of the parking type alone and a one-second fresh window, so an upstream change reaches
 * the streams within the bench instead of after parking's 120 s.
 */
import { buildApp } from '../../src/app.ts';
import { buildCatalog, CATALOG } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/core/config.ts';

const parking = CATALOG.byType.get('parking')!;
const config = loadConfig(process.env, CATALOG.sources);
const built = await buildApp(config, { catalog: buildCatalog([{ ...parking, cache: { freshSeconds: 1, staleSeconds: 600 } }]), logger: false });
await built.app.listen({ host: config.host, port: config.port });
process.stdout.write('ready\n');
process.on('SIGTERM', () => void built.close().then(() => process.exit(0)));
