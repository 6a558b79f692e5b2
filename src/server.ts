import { buildApp, serverLimits } from './app.ts';
import { listenOrExit, loadConfigOrExit } from './startup.ts';
import { startJobs } from './jobs/index.ts';
import { listenLocal } from './local-ingress.ts';
import { webBundle } from './http/web-assets.ts';
import { EXPLORER_ENTRY } from './services/explorer-html.ts';

/** Process entry: main ingress, optional local ingress, background jobs, graceful shutdown. */
async function main() {
  const config = loadConfigOrExit('stadtdaten');
  const built = await buildApp(config);
  const { app } = built;
  await listenOrExit(app, config.host, config.port, 'stadtdaten');
  // The explorer's bundle, built now (esbuild, in its own process) rather than by the first visitor.
  void webBundle(EXPLORER_ENTRY).catch((err: unknown) => app.log.warn({ err: String(err) }, 'explorer bundle failed; the next page load tries again'));
  const local =
    config.localHost && config.localPort
      ? await listenLocal(app.routing.bind(app), config.localHost, config.localPort, { corsOrigin: config.corsOrigin, limits: serverLimits(config) })
      : null;
  if (local) app.log.info({ address: `${config.localHost}:${config.localPort}` }, 'local ingress listening');
  const jobs = config.jobs ? startJobs(built.rt, [...built.rt.catalog.jobsFor(built.rt), ...built.historyJobs]) : { stop: async () => {} };
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await jobs.stop();
    // Both listeners drain together: requests in flight on either are answered, then their connections close.
    const localClosed = local ? new Promise((r) => (local.startDraining(config.shutdownGraceMs), local.close(r))) : null;
    await built.close();
    await localClosed;
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error('stadtdaten: failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
